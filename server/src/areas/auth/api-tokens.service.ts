import { authMessages, type ApiTokenRow } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { newApiToken } from '../../identity/api-tokens.ts';
import { hashToken } from '../../identity/sessions.ts';
import { requireRecentSignIn, type PasswordSession } from './account.service.ts';

/** The account's personal API tokens, newest first (labels and dates; the tokens themselves are not kept). */
export async function listTokens(deps: AppDeps, userId: number): Promise<ApiTokenRow[]> {
  const rows = await deps.db
    .selectFrom('api_tokens')
    .select(['id', 'label', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, label: r.label, createdAt: r.created_at.toISOString(), lastUsedAt: r.last_used_at?.toISOString() ?? null }));
}

/** A new token for the member; the answer is the only time the token is seen. Used by the account page and `npm run user -- token`. */
export async function issueToken(deps: AppDeps, userId: number, label: string): Promise<ApiTokenRow & { token: string }> {
  const token = newApiToken();
  const row = await deps.db
    .insertInto('api_tokens')
    .values({ user_id: userId, label, token_hash: hashToken(token), last_used_at: null })
    .returning(['id', 'label', 'created_at'])
    .executeTakeFirstOrThrow();
  return { id: row.id, label: row.label, createdAt: row.created_at.toISOString(), lastUsedAt: null, token };
}

/**
 * Creating and revoking need the member's own signed-in browser (their rows are `BrowserRule`s): a
 * token never makes or removes tokens. Creating one also needs a recent sign-in (requireRecentSignIn).
 */
export async function createToken(deps: AppDeps, session: PasswordSession, label: string) {
  await requireRecentSignIn(deps, session);
  return issueToken(deps, session.user.id, label);
}

export async function revokeToken(deps: AppDeps, session: PasswordSession, id: number): Promise<{ ok: true }> {
  const gone = await deps.db.deleteFrom('api_tokens').where('id', '=', id).where('user_id', '=', session.user.id).executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) throw new AppError('NOT_FOUND', authMessages.unknownToken);
  return { ok: true };
}
