import Bowser from 'bowser';
import { authMessages, changePasswordProblem, REAUTH_MINUTES, type ChangePasswordInput, type DeviceRow } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { listSessionsOf } from '../../identity/sessions.repository.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import * as users from '../../identity/users.repository.ts';
import { accountLimitKey, passwordPolicyProblem } from './auth.service.ts';
import { limitKey } from '../../identity/limits.ts';

/**
 * The signed-in browser a change comes from. Account changes need one: their rows in the permission
 * table are `BrowserRule`s, whose gate refuses a personal API token, so a leaked token can never take
 * the account over (server/src/trpc/procedures.ts).
 */
export type PasswordSession = { user: SessionUser; sessionHash: string };

/** A new password for the account: checked like a sign-up's, hashed, and the account's login count cleared. */
export async function storeNewPassword(deps: AppDeps, user: { id: number; name: string }, password: string): Promise<void> {
  const policy = passwordPolicyProblem(user.name, password);
  if (policy) throw new AppError('BAD_REQUEST', policy);
  await users.setPasswordHash(deps.db, user.id, await deps.passwords.hash(password));
  await deps.limits.clear(accountLimitKey(users.nameKey(user.name)));
}

/**
 * Ends the ways into an account but the session `keep` (null: all): its sessions (and with them what
 * hangs on a session), and with `keys` its personal API tokens, passkeys and calendar feed address too. A reset link ends
 * all of them; a password change the sessions, and the keys unless the member unticks the box.
 */
export async function endEveryWayIn(deps: AppDeps, userId: number, keep: string | null, keys = true): Promise<void> {
  if (keys) {
    await deps.db.deleteFrom('api_tokens').where('user_id', '=', userId).execute();
    await deps.db.deleteFrom('auth_passkeys').where('user_id', '=', userId).execute();
    // The calendar feed's address is a way in to the family's plan like a token (areas/plan).
    await deps.db.deleteFrom('calendar_feeds').where('user_id', '=', userId).execute();
  }
  await deps.sessions.endAllOf(userId, keep);
}

/**
 * Checks the member's current password (counted like logins, per account, so a browser left signed
 * in cannot be used to guess it); the account's row when it is right.
 */
async function checkCurrentPassword(deps: AppDeps, user: SessionUser, password: string) {
  const { maxFailures: max, windowMs } = deps.config.loginThrottle;
  const key = limitKey('change-password', String(user.id));
  if (!(await deps.limits.reserve([{ key, max, windowMs }]))) throw new AppError('TOO_MANY_REQUESTS', authMessages.throttled);
  const row = await users.findUserByName(deps.db, user.name);
  if (!row || row.id !== user.id) throw new AppError('UNAUTHORIZED', authMessages.currentPasswordWrong);
  if (!(await deps.passwords.verify(row.password_hash, password))) throw new AppError('BAD_REQUEST', authMessages.currentPasswordWrong);
  await deps.limits.clear(key);
  return row;
}

/**
 * Changes the password after checking the current one, then signs out every other session and, when
 * `removeKeys` (the default), removes the account's passkeys and API tokens.
 */
export async function changePassword(deps: AppDeps, session: PasswordSession, input: ChangePasswordInput): Promise<{ message: string }> {
  const problem = changePasswordProblem(input);
  if (problem) throw new AppError('BAD_REQUEST', problem);
  const row = await checkCurrentPassword(deps, session.user, input.currentPassword);
  await storeNewPassword(deps, row, input.newPassword);
  await endEveryWayIn(deps, row.id, session.sessionHash, input.removeKeys);
  await markConfirmed(deps, session.sessionHash);
  return { message: input.removeKeys ? authMessages.passwordChangedAndKeys : authMessages.passwordChanged };
}

const markConfirmed = (deps: AppDeps, sessionHash: string) => deps.db.updateTable('sessions').set({ confirmed_at: new Date() }).where('token_hash', '=', sessionHash).execute();

/** Confirms the session with the password again (REAUTH_MINUTES), counted like a password change. */
export async function confirmPassword(deps: AppDeps, session: PasswordSession, password: string): Promise<{ message: string }> {
  await checkCurrentPassword(deps, session.user, password);
  await markConfirmed(deps, session.sessionHash);
  return { message: authMessages.confirmed };
}

/** Confirms the session once a passkey of the member's own answered (passkeys.ts checks it). */
export async function confirmSession(deps: AppDeps, session: PasswordSession): Promise<{ message: string }> {
  await markConfirmed(deps, session.sessionHash);
  return { message: authMessages.confirmed };
}

/**
 * Adding a passkey or a token needs a session that signed in, or confirmed it is its member, within
 * REAUTH_MINUTES: a cookie taken from a borrowed computer cannot add a way in that outlives it.
 */
export async function requireRecentSignIn(deps: AppDeps, session: PasswordSession): Promise<void> {
  const row = await deps.db.selectFrom('sessions').select(['created_at', 'confirmed_at']).where('token_hash', '=', session.sessionHash).executeTakeFirst();
  const last = Math.max(row?.created_at.getTime() ?? 0, row?.confirmed_at?.getTime() ?? 0);
  if (Date.now() - last > REAUTH_MINUTES * 60_000) throw new AppError('FORBIDDEN', authMessages.confirmNeeded);
}

/** What the device list calls a session: a short id, never the token nor its whole hash. */
const deviceId = (tokenHash: string) => tokenHash.slice(0, 16);

/** 'Firefox 131 on Linux' from a User-Agent (bowser), or what is known. */
export function browserName(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  const os = parsed.os.name ?? '';
  if (!browser) return os ? `A program on ${os}` : userAgent.slice(0, 60);
  return os ? `${browser} on ${os}` : browser;
}

export async function devices(deps: AppDeps, session: { user: SessionUser; sessionHash: string | null }): Promise<DeviceRow[]> {
  const rows = await listSessionsOf(deps.db, session.user.id, new Date());
  return rows.map((row) => ({
    id: deviceId(row.token_hash),
    browser: browserName(row.user_agent),
    address: row.ip ?? 'Unknown address',
    signedInAt: row.created_at.toISOString(),
    lastUsedAt: row.renewed_at.toISOString(),
    current: row.token_hash === session.sessionHash,
  }));
}

/** Signs out one of the account's own sessions (the current one too: that is a logout). */
export async function signOutDevice(deps: AppDeps, session: PasswordSession, id: string): Promise<{ ok: true }> {
  const rows = await listSessionsOf(deps.db, session.user.id, new Date());
  const row = rows.find((r) => deviceId(r.token_hash) === id);
  if (!row) throw new AppError('NOT_FOUND', authMessages.unknownDevice);
  await deps.sessions.end(row.token_hash);
  return { ok: true };
}

export async function signOutOthers(deps: AppDeps, session: PasswordSession): Promise<{ ended: number }> {
  const keep = session.sessionHash;
  return { ended: await deps.sessions.endAllOf(session.user.id, keep) };
}
