import {
  climbingMessages,
  type AddClimbingPassInput,
  type ClimbingPass,
  type ClimbingPasses,
  type RemoveClimbingPassInput,
} from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import * as repo from './climbing.repository.ts';

/** How many passes the page lists (newest first); the month's count is exact whatever this is. */
export const PASSES_LISTED = 200;

/** The first instant of the current calendar month, in the server's time zone. */
export function startOfMonth(now = new Date()): Date {
  return new Date(now.getFullYear(), now.getMonth(), 1);
}

const canRemove = (user: SessionUser, addedBy: number | null) => user.level >= 3 || addedBy === user.id;

export async function list(deps: AppDeps, user: SessionUser): Promise<ClimbingPasses> {
  const [rows, usedThisMonth] = await Promise.all([
    repo.listPasses(deps.db, PASSES_LISTED),
    repo.countSince(deps.db, startOfMonth()),
  ]);
  const guests: ClimbingPass[] = rows.map((row) => ({
    id: row.id,
    guest: row.guest,
    addedBy: row.added_by_name,
    addedAt: new Date(row.created_at).toISOString(),
    canRemove: canRemove(user, row.added_by),
  }));
  return { guests, usedThisMonth, allowance: deps.config.climbingPassesPerMonth };
}

/** Adds a pass; with an allowance set, the month's last one goes to exactly one member. */
export function add(deps: AppDeps, user: SessionUser, input: AddClimbingPassInput): Promise<ClimbingPass> {
  const allowance = deps.config.climbingPassesPerMonth;
  return deps.db.transaction().execute(async (trx) => {
    if (allowance !== null) {
      await repo.lockPasses(trx);
      if ((await repo.countSince(trx, startOfMonth())) >= allowance) {
        throw new AppError('CONFLICT', climbingMessages.allowanceUsed(allowance));
      }
    }
    const row = await repo.insertPass(trx, user.id, input.guest);
    return { id: row.id, guest: row.guest, addedBy: user.name, addedAt: new Date(row.created_at).toISOString(), canRemove: true };
  });
}

/** Removes a pass: the member who added it, or an admin. */
export async function remove(deps: AppDeps, user: SessionUser, input: RemoveClimbingPassInput): Promise<{ id: number }> {
  const pass = await repo.findPass(deps.db, input.id);
  if (!pass) throw new AppError('NOT_FOUND', climbingMessages.notFound);
  if (!canRemove(user, pass.added_by)) throw new AppError('FORBIDDEN', climbingMessages.notYours);
  await repo.deletePass(deps.db, input.id);
  return { id: input.id };
}
