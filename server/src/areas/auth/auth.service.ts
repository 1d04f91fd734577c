import {
  authMessages,
  nameTextProblem,
  PASSWORD_MAX,
  PASSWORD_MIN,
  signupProblem,
  type LoginInput,
  type SignupInput,
  type Status,
} from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import * as repo from '../../identity/users.repository.ts';
import type { SessionClient } from '../../identity/sessions.repository.ts';
import { COMMON_PASSWORDS } from './common-passwords.ts';
import { limitKey } from '../../identity/limits.ts';
import { codeMatches, forgetSetupCode, isLoopback, setupCode } from './setup-code.ts';

export const statusOf = (user: { name: string; level: number } | null): Status => ({
  user: user?.name ?? null,
  level: user?.level ?? 0,
});

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** Where a login or sign-up comes from: the client address and the browser's device cookie. */
export type Client = { ip: string; deviceToken: string | null };

/**
 * The server's own sign-up rules, after the spec's checks (signupProblem, which the client runs too):
 * a name without invisible or direction-changing characters, a password of at least 8 characters
 * that is not one of the most common ones nor the name itself.
 */
export function signupPolicyProblem(name: string, password: string): string | null {
  const nameProblem = nameTextProblem(name);
  if (nameProblem === 'invisible') return authMessages.nameInvisible;
  if (nameProblem === 'lookalike') return authMessages.nameLookalike;
  return passwordPolicyProblem(name, password);
}

/** The password rules of a sign-up, a password change and a reset: length, not a common one, not the name. */
export function passwordPolicyProblem(name: string, password: string): string | null {
  if (password.length < PASSWORD_MIN) return authMessages.passwordTooShort;
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return authMessages.passwordTooCommon;
  if (repo.nameKey(password) === repo.nameKey(name)) return authMessages.passwordIsName;
  return null;
}

/**
 * Creates an account: the very first one becomes the owner (level 3), every later one waits at 0.
 * The first one needs the setup code unless it comes from the server machine itself (setup-code.ts).
 * Sign-ups are counted per client address before the password is hashed.
 */
export async function signup(deps: AppDeps, input: SignupInput, client: Client): Promise<SessionUser> {
  const problem = signupProblem(input);
  if (problem) throw new AppError('BAD_REQUEST', problem);
  const name = input.name.trim().normalize('NFC');
  const policy = signupPolicyProblem(name, input.password);
  if (policy) throw new AppError('BAD_REQUEST', policy);
  if (await repo.findUserByName(deps.db, name)) throw new AppError('CONFLICT', authMessages.nameTaken);
  const { maxAttempts, windowMs } = deps.config.signupThrottle;
  if (!(await deps.limits.reserve([{ key: limitKey('signup', client.ip), max: maxAttempts, windowMs }]))) {
    throw new AppError('TOO_MANY_REQUESTS', authMessages.signupThrottled);
  }
  const local = isLoopback(client.ip);
  // Made (and kept) outside the sign-up's transaction, which a refusal rolls back.
  const expectedCode = local ? null : await setupCode(deps.db);
  const passwordHash = await deps.passwords.hash(input.password);
  try {
    const user = await deps.db.transaction().execute(async (trx) => {
      await repo.lockUsers(trx);
      if (await repo.findUserByName(trx, name)) throw new AppError('CONFLICT', authMessages.nameTaken);
      const first = (await repo.countUsers(trx)) === 0;
      if (first && !local) {
        if (!input.setupCode) throw new AppError('FORBIDDEN', authMessages.setupCodeNeeded);
        if (expectedCode === null || !codeMatches(input.setupCode, expectedCode)) throw new AppError('FORBIDDEN', authMessages.setupCodeWrong);
      }
      const row = await repo.insertUser(trx, { name, passwordHash, level: first ? 3 : 0 });
      if (first) await forgetSetupCode(trx);
      return row;
    });
    return { id: user.id, name: user.name, level: user.level as SessionUser['level'] };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', authMessages.nameTaken);
    throw error;
  }
}

/** The counters one sign-in attempt took (countSignIn), to give back on a success. */
export type SignInAttempt = { accountKey: string; address: { pairKey: string; ipKey: string; totalKey: string } | null; trusted: boolean };

/**
 * Counts one sign-in attempt (a password, or a passkey) before anything is checked, so attempts in
 * flight count and parallel requests cannot get past the limit. Two counters, kept apart so that one
 * member's typing never locks out the rest of a household behind the same router:
 * - the account (`who`, a name key): LOGIN_MAX_FAILURES attempts in the window, from anywhere; a
 *   browser holding a device cookie for this account (it signed in to it before) has a counter of
 *   its own instead, and its attempts do not count on the address;
 * - the address, on every attempt: how many different accounts it tried in the window (an address
 *   trying many names; the second try at a name does not count a new account but is refused like the
 *   first once the address is over), and all its attempts together, up to three times the limit
 *   (what a household's own typing needs). An attempt the account's counter refuses does not count on
 *   the address, so a member hammering their own locked account does not lock the others out.
 * At a limit the attempt is refused with 429 until the window has passed, even with the right password.
 */
export async function countSignIn(deps: AppDeps, who: string, client: Client): Promise<SignInAttempt> {
  const { maxFailures: max, windowMs } = deps.config.loginThrottle;
  const device = await deps.devices.trustedFor(client.deviceToken, who);
  const accountKey = device ? limitKey('device', device) : accountLimitKey(who);
  const refused = () => new AppError('TOO_MANY_REQUESTS', authMessages.throttled);
  if (!(await deps.limits.reserve([{ key: accountKey, max, windowMs }]))) throw refused();
  if (device) return { accountKey, address: null, trusted: true };
  const address = { pairKey: limitKey('ip-name', `${client.ip}\n${who}`), ipKey: limitKey('ip', client.ip), totalKey: limitKey('ip-all', client.ip) };
  const newAccount = (await deps.limits.hit(address.pairKey, windowMs)) === 1;
  const accounts = newAccount ? await deps.limits.hit(address.ipKey, windowMs) : await deps.limits.peek(address.ipKey);
  const total = await deps.limits.hit(address.totalKey, windowMs);
  if (accounts > max || total > ADDRESS_ATTEMPTS_PER_ACCOUNT_LIMIT * max) throw refused();
  return { accountKey, address, trusted: false };
}

/** An address may make this many times LOGIN_MAX_FAILURES attempts in the window, over all its accounts. */
const ADDRESS_ATTEMPTS_PER_ACCOUNT_LIMIT = 3;

/** A sign-in that succeeded: the account's counter starts again, the address gets its attempt and account back. */
export async function signInSucceeded(deps: AppDeps, attempt: SignInAttempt): Promise<void> {
  await deps.limits.clear(attempt.accountKey);
  if (!attempt.address) return;
  await deps.limits.clear(attempt.address.pairKey);
  await deps.limits.release(attempt.address.ipKey);
  await deps.limits.release(attempt.address.totalKey);
}

/** Checks a name and password, counted first (countSignIn). */
export async function login(deps: AppDeps, input: LoginInput, client: Client): Promise<{ user: SessionUser; trusted: boolean }> {
  const name = input.name.trim().normalize('NFC');
  const attempt = await countSignIn(deps, repo.nameKey(name), client);
  const fail = () => new AppError('UNAUTHORIZED', authMessages.badCredentials);
  if (name === '' || input.password === '' || input.password.length > PASSWORD_MAX) throw fail();
  const user = await repo.findUserByName(deps.db, name);
  if (!user) {
    await deps.passwords.burn(input.password);
    throw fail();
  }
  if (!(await deps.passwords.verify(user.password_hash, input.password))) throw fail();
  await signInSucceeded(deps, attempt);
  return { user: { id: user.id, name: user.name, level: user.level as SessionUser['level'] }, trusted: attempt.trusted };
}

/** The account's login counter (cleared by a successful login, password change or reset). */
export const accountLimitKey = (nameKey: string) => limitKey('name', nameKey);

/** A pending account may hold a session (it sees /preauth and can log out) but its login is refused. */
export function assertNotPending(user: SessionUser): void {
  if (user.level === 0) throw new AppError('FORBIDDEN', authMessages.pending, { preauth: true });
}

/** Every sign-in gets a fresh session; the one the browser had before is ended. */
export async function startSession(deps: AppDeps, user: SessionUser, previousHash: string | null, client?: SessionClient): Promise<string> {
  if (previousHash) await deps.sessions.end(previousHash);
  const { token } = await deps.sessions.create(user.id, client);
  return token;
}

export async function endSession(deps: AppDeps, sessionHash: string | null): Promise<void> {
  if (sessionHash) await deps.sessions.end(sessionHash);
}
