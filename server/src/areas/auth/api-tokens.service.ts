import { authMessages, type ApiTokenRow } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { newApiToken, scopesColumn, scopesOfColumn } from '../../identity/api-tokens.ts';
import { hashToken } from '../../identity/sessions.ts';
import { requireRecentSignIn, type PasswordSession } from './account.service.ts';

/** The account's personal API tokens, newest first (labels and dates; the tokens themselves are not kept). */
export async function listTokens(deps: AppDeps, userId: number): Promise<ApiTokenRow[]> {
  const rows = await deps.db
    .selectFrom('api_tokens')
    .select(['id', 'label', 'created_at', 'last_used_at', 'scopes'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, label: r.label, createdAt: r.created_at.toISOString(), lastUsedAt: r.last_used_at?.toISOString() ?? null, scopes: scopesOfColumn(r.scopes) }));
}

/**
 * A new token for the member, with scopes (contracts/src/scopes.ts; null or absent: every right); the
 * answer is the only time the token is seen. Used by the account page and `npm run user -- token`.
 */
export async function issueToken(deps: AppDeps, userId: number, label: string, scopes: readonly string[] | null = null): Promise<ApiTokenRow & { token: string }> {
  const token = newApiToken();
  const row = await deps.db
    .insertInto('api_tokens')
    .values({ user_id: userId, label, token_hash: hashToken(token), last_used_at: null, scopes: scopesColumn(scopes) })
    .returning(['id', 'label', 'created_at', 'scopes'])
    .executeTakeFirstOrThrow();
  return { id: row.id, label: row.label, createdAt: row.created_at.toISOString(), lastUsedAt: null, scopes: scopesOfColumn(row.scopes), token };
}

/**
 * Creating and revoking need the member's own signed-in browser (their rows are `BrowserRule`s): a
 * token never makes or removes tokens. Creating one also needs a recent sign-in (requireRecentSignIn).
 */
export async function createToken(deps: AppDeps, session: PasswordSession, label: string, scopes: readonly string[] | null = null) {
  await requireRecentSignIn(deps, session);
  return issueToken(deps, session.user.id, label, scopes);
}

export async function revokeToken(deps: AppDeps, session: PasswordSession, id: number): Promise<{ ok: true }> {
  const gone = await deps.db.deleteFrom('api_tokens').where('id', '=', id).where('user_id', '=', session.user.id).executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) throw new AppError('NOT_FOUND', authMessages.unknownToken);
  return { ok: true };
}
