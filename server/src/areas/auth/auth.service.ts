import { authMessages, PASSWORD_MAX, signupProblem, type LoginInput, type SignupInput, type Status } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import * as repo from '../../identity/users.repository.ts';

export const statusOf = (user: { name: string; level: number } | null): Status => ({
  user: user?.name ?? null,
  level: user?.level ?? 0,
});

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** Creates an account: the very first one becomes the owner (level 3), every later one waits at 0. */
export async function signup(deps: AppDeps, input: SignupInput): Promise<SessionUser> {
  const problem = signupProblem(input);
  if (problem) throw new AppError('BAD_REQUEST', problem);
  const name = input.name.trim();
  if (await repo.findUserByName(deps.db, name)) throw new AppError('CONFLICT', authMessages.nameTaken);
  const passwordHash = await deps.passwords.hash(input.password);
  try {
    const user = await deps.db.transaction().execute(async (trx) => {
      await repo.lockUsers(trx);
      if (await repo.findUserByName(trx, name)) throw new AppError('CONFLICT', authMessages.nameTaken);
      const level = (await repo.countUsers(trx)) === 0 ? 3 : 0;
      return repo.insertUser(trx, { name, passwordHash, level });
    });
    return { id: user.id, name: user.name, level: user.level as SessionUser['level'] };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', authMessages.nameTaken);
    throw error;
  }
}

/**
 * Checks a name and password. Failures are counted per account and per address; at the limit every
 * attempt is refused with 429 until the window has passed, even with the right password.
 */
export async function login(deps: AppDeps, input: LoginInput, ip: string): Promise<SessionUser> {
  const name = input.name.trim();
  const nameKey = `name:${repo.nameKey(name)}`;
  const keys = [nameKey, `ip:${ip}`];
  if (deps.throttle.isBlocked(keys)) throw new AppError('TOO_MANY_REQUESTS', authMessages.throttled);
  const fail = () => {
    deps.throttle.recordFailure(keys);
    return new AppError('UNAUTHORIZED', authMessages.badCredentials);
  };
  if (name === '' || input.password === '' || input.password.length > PASSWORD_MAX) throw fail();
  const user = await repo.findUserByName(deps.db, name);
  if (!user) {
    await deps.passwords.burn(input.password);
    throw fail();
  }
  if (!(await deps.passwords.verify(user.password_hash, input.password))) throw fail();
  deps.throttle.clear(nameKey);
  return { id: user.id, name: user.name, level: user.level as SessionUser['level'] };
}

/** A pending account may hold a session (it sees /preauth and can log out) but its login is refused. */
export function assertNotPending(user: SessionUser): void {
  if (user.level === 0) throw new AppError('FORBIDDEN', authMessages.pending, { preauth: true });
}

/** Every sign-in gets a fresh session; the one the browser had before is ended. */
export async function startSession(deps: AppDeps, user: SessionUser, previousHash: string | null): Promise<string> {
  if (previousHash) await deps.sessions.end(previousHash);
  const { token } = await deps.sessions.create(user.id);
  return token;
}

export async function endSession(deps: AppDeps, sessionHash: string | null): Promise<void> {
  if (sessionHash) await deps.sessions.end(sessionHash);
}
