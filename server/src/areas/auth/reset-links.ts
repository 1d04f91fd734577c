import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { adminMessages, authMessages, newPasswordProblem, RESET_LINK_HOURS, RESET_PAGE, type ResetLink, type ResetPasswordInput, type ResetStatus } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { hashToken } from '../../identity/sessions.ts';
import { findUserByName } from '../../identity/users.repository.ts';
import { endEveryWayIn, storeNewPassword } from './account.service.ts';
import { passwordPolicyProblem } from './auth.service.ts';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * A one-time link that lets a member set a new password (an admin makes it on /admin, or the owner
 * with `npm run user -- reset-link NAME`). It works for RESET_LINK_HOURS; only its hash is stored.
 * Making a new one for the same member voids the older unused ones (which then say a newer link
 * replaced them).
 */
export async function createResetLink(deps: AppDeps, name: string): Promise<ResetLink> {
  const user = await findUserByName(deps.db, name);
  if (!user) throw new AppError('NOT_FOUND', adminMessages.unknownUser);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + RESET_LINK_HOURS * 3600_000);
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('auth_reset_links')
      .set({ replaced_at: new Date() })
      .where('user_id', '=', user.id)
      .where('used_at', 'is', null)
      .where('replaced_at', 'is', null)
      .execute();
    await trx.insertInto('auth_reset_links').values({ token_hash: hashToken(token), user_id: user.id, expires_at: expiresAt, used_at: null }).execute();
  });
  const path = `${RESET_PAGE}#${token}`;
  return { name: user.name, path, url: deps.config.publicUrl ? `${deps.config.publicUrl}${path}` : null, expiresAt: expiresAt.toISOString() };
}

async function findLink(deps: AppDeps, token: string) {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  return deps.db
    .selectFrom('auth_reset_links')
    .innerJoin('users', 'users.id', 'auth_reset_links.user_id')
    .select(['auth_reset_links.token_hash', 'auth_reset_links.expires_at', 'auth_reset_links.used_at', 'auth_reset_links.replaced_at', 'users.id', 'users.name'])
    .where('auth_reset_links.token_hash', '=', hashToken(token))
    .executeTakeFirst();
}

/** What the reset page shows before the form: whose link it is, or why it no longer works. */
export async function resetStatus(deps: AppDeps, token: string): Promise<ResetStatus> {
  const link = await findLink(deps, token);
  if (!link) return { state: 'unknown', name: null };
  if (link.used_at) return { state: 'used', name: link.name };
  if (link.replaced_at) return { state: 'replaced', name: link.name };
  if (link.expires_at.getTime() <= Date.now()) return { state: 'expired', name: link.name };
  return { state: 'valid', name: link.name };
}

/**
 * Sets the new password through the link, once: the link is marked used in the same statement that
 * checks it (two tabs cannot both use it), and the account's failed-login count is cleared. Whoever
 * may have held a way in ends with it: every session, API token and passkey of the account.
 */
export async function resetPassword(deps: AppDeps, input: ResetPasswordInput): Promise<{ name: string; message: string }> {
  const link = await findLink(deps, input.token);
  if (!link) throw new AppError('NOT_FOUND', authMessages.resetUnknown);
  if (link.used_at) throw new AppError('CONFLICT', authMessages.resetUsed);
  if (link.replaced_at) throw new AppError('CONFLICT', authMessages.resetReplaced);
  if (link.expires_at.getTime() <= Date.now()) throw new AppError('CONFLICT', authMessages.resetExpired);
  const problem = newPasswordProblem(input) ?? passwordPolicyProblem(link.name, input.newPassword);
  if (problem) throw new AppError('BAD_REQUEST', problem);
  const user = { id: link.id, name: link.name };
  const claimed = await deps.db
    .updateTable('auth_reset_links')
    .set({ used_at: sql<Date>`now()` })
    .where('token_hash', '=', link.token_hash)
    .where('used_at', 'is', null)
    .where('replaced_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('token_hash')
    .executeTakeFirst();
  if (!claimed) throw new AppError('CONFLICT', authMessages.resetUsed);
  try {
    await storeNewPassword(deps, user, input.newPassword);
  } catch (error) {
    // A refused password leaves the link usable for a better one.
    await deps.db.updateTable('auth_reset_links').set({ used_at: null }).where('token_hash', '=', link.token_hash).execute();
    throw error;
  }
  await endEveryWayIn(deps, user.id, null);
  return { name: user.name, message: authMessages.resetDone };
}

export async function sweepResetLinks(deps: AppDeps): Promise<void> {
  await deps.db.deleteFrom('auth_reset_links').where('expires_at', '<', sql<Date>`now() - interval '30 days'`).execute();
}
