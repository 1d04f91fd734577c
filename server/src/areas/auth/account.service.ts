import Bowser from 'bowser';
import { authMessages, newPasswordProblem, type ChangePasswordInput, type DeviceRow } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { listSessionsOf } from '../../identity/sessions.repository.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import * as users from '../../identity/users.repository.ts';
import { accountLimitKey, passwordPolicyProblem } from './auth.service.ts';
import { limitKey } from './limits.ts';

/**
 * The signed-in browser a change comes from. Account changes need one: a personal API token (or a
 * caller without a session) is refused, so a leaked token can never take the account over.
 */
export type PasswordSession = { user: SessionUser; sessionHash: string | null };

export function requirePasswordSession(session: PasswordSession): string {
  if (!session.sessionHash) throw new AppError('FORBIDDEN', authMessages.needsPasswordSession);
  return session.sessionHash;
}

/** A new password for the account: checked like a sign-up's, hashed, and the account's login count cleared. */
export async function storeNewPassword(deps: AppDeps, user: { id: number; name: string }, password: string): Promise<void> {
  const policy = passwordPolicyProblem(user.name, password);
  if (policy) throw new AppError('BAD_REQUEST', policy);
  await users.setPasswordHash(deps.db, user.id, await deps.passwords.hash(password));
  await deps.limits.clear(accountLimitKey(users.nameKey(user.name)));
}

/**
 * Changes the password after checking the current one (counted like logins, per account, so a
 * browser left signed in cannot be used to guess it), then signs out every other session.
 */
export async function changePassword(deps: AppDeps, session: PasswordSession, input: ChangePasswordInput): Promise<{ message: string }> {
  const keep = requirePasswordSession(session);
  const problem = newPasswordProblem(input);
  if (problem) throw new AppError('BAD_REQUEST', problem);
  const { maxFailures: max, windowMs } = deps.config.loginThrottle;
  const key = limitKey('change-password', String(session.user.id));
  if (!(await deps.limits.reserve([{ key, max, windowMs }]))) throw new AppError('TOO_MANY_REQUESTS', authMessages.throttled);
  const row = await users.findUserByName(deps.db, session.user.name);
  if (!row || row.id !== session.user.id) throw new AppError('UNAUTHORIZED', authMessages.currentPasswordWrong);
  if (!(await deps.passwords.verify(row.password_hash, input.currentPassword))) throw new AppError('BAD_REQUEST', authMessages.currentPasswordWrong);
  await storeNewPassword(deps, row, input.newPassword);
  await deps.limits.clear(key);
  await deps.sessions.endAllOf(row.id, keep);
  return { message: authMessages.passwordChanged };
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

export async function devices(deps: AppDeps, session: PasswordSession): Promise<DeviceRow[]> {
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
  requirePasswordSession(session);
  const rows = await listSessionsOf(deps.db, session.user.id, new Date());
  const row = rows.find((r) => deviceId(r.token_hash) === id);
  if (!row) throw new AppError('NOT_FOUND', authMessages.unknownDevice);
  await deps.sessions.end(row.token_hash);
  return { ok: true };
}

export async function signOutOthers(deps: AppDeps, session: PasswordSession): Promise<{ ended: number }> {
  const keep = requirePasswordSession(session);
  return { ended: await deps.sessions.endAllOf(session.user.id, keep) };
}
