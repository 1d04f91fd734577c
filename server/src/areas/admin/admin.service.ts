import { adminMessages, type Level, type SetLevelInput, type UserRow } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../identity/session-user.ts';
import { findUserByName, lockUsers } from '../../identity/users.repository.ts';
import * as repo from './admin.repository.ts';

export async function users(deps: AppDeps): Promise<UserRow[]> {
  const rows = await repo.listUsers(deps.db);
  return rows.map((r) => ({ name: r.name, level: r.level as Level }));
}

/** How many accounts wait for an admin to approve them (level 0). */
export async function waitingCount(deps: AppDeps): Promise<{ count: number }> {
  return { count: await repo.countAtLevel(deps.db, 0) };
}

/**
 * Changes an account's level; it applies to that account's very next request. `actor` is the admin
 * doing it, or the command line (recovery), which may do anything.
 */
export async function setLevel(deps: AppDeps, actor: Actor, input: SetLevelInput): Promise<UserRow> {
  const updated = await deps.db.transaction().execute(async (trx) => {
    await lockUsers(trx);
    const user = await findUserByName(trx, input.name);
    if (!user) throw new AppError('NOT_FOUND', adminMessages.unknownUser);
    if (actor.kind === 'user' && actor.user.id === user.id && user.level === 3 && input.level < 3 && (await repo.countAtLevel(trx, 3)) <= 1) {
      throw new AppError('BAD_REQUEST', adminMessages.lastAdmin);
    }
    return repo.setLevel(trx, user.id, input.level);
  });
  deps.sessions.forgetUser(updated.id);
  return { name: updated.name, level: updated.level as Level };
}
