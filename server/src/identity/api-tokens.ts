import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Level } from '@site/contracts';
import type { Executor } from '../db/database.ts';
import type { SessionUser } from './session-user.ts';
import { hashToken } from './token-hash.ts';

/** 'site_' and 43 base64url characters (256 bits): the prefix lets secret scanners and people recognise one. */
const TOKEN_SHAPE = /^site_[A-Za-z0-9_-]{43}$/;

export const newApiToken = () => `site_${randomBytes(32).toString('base64url')}`;

/**
 * The personal API token of an Authorization header (`Bearer site_...`), or null for any other: no
 * header, Basic credentials a proxy's own password prompt (nginx `auth_basic`) forwards, or a Bearer
 * of another kind. Only a token of ours decides who is asking; with anything else the cookie does.
 */
export function bearerOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^Bearer[ \t]+(site_\S*)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** A personal API token's member and scopes (null: every right of the member). */
export type ApiTokenHolder = { user: SessionUser; scopes: readonly string[] | null };

/** Scopes as the api_tokens row keeps them: space-separated, or null for every right. */
export const scopesColumn = (scopes: readonly string[] | null | undefined): string | null => (scopes ? scopes.join(' ') : null);
export const scopesOfColumn = (column: string | null): string[] | null => (column === null ? null : column.split(' ').filter((s) => s !== ''));

/**
 * The member a personal API token acts for, with the member's level now (read on every request, so a
 * level change or a revoked token applies to the very next one), and the token's scopes; or null for
 * an unknown token.
 */
export async function findApiTokenUser(db: Executor, token: string): Promise<ApiTokenHolder | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const tokenHash = hashToken(token);
  const row = await db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select(['users.id', 'users.name', 'users.level', 'api_tokens.last_used_at', 'api_tokens.scopes'])
    .where('api_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return null;
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > 60_000) {
    await db.updateTable('api_tokens').set({ last_used_at: sql<Date>`now()` }).where('token_hash', '=', tokenHash).execute();
  }
  return { user: { id: row.id, name: row.name, level: row.level as Level }, scopes: scopesOfColumn(row.scopes) };
}
