import { windowsKeyMessages, type AddWindowsKeyInput, type UpdateWindowsKeyInput, type WindowsKey } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import * as repo from './windows-keys.repository.ts';

const iso = (at: Date | string) => new Date(at).toISOString();

/** Every key in full: the page masks Active ones, and needs the key itself to release or claim it. */
export async function list(deps: AppDeps): Promise<WindowsKey[]> {
  const rows = await repo.listKeys(deps.db);
  return rows.map((r) => ({ key: r.key, status: r.status, location: r.location, changedBy: r.changed_by_name, changedAt: iso(r.changed_at) }));
}

export function add(deps: AppDeps, user: SessionUser, input: AddWindowsKeyInput): Promise<WindowsKey> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.insertKey(trx, user.id, input);
    if (!row) throw new AppError('CONFLICT', windowsKeyMessages.duplicate);
    await repo.recordEvent(trx, { key: row.key, action: 'register', status: row.status, location: row.location, user_id: user.id });
    return { key: row.key, status: row.status, location: row.location, changedBy: user.name, changedAt: iso(row.changed_at) };
  });
}

/**
 * Release (Active -> Inactive, the location kept as where it was last) or claim (Inactive or
 * Unused -> Active at a location, or -> Unused with no location). Anything else is refused.
 */
export function update(deps: AppDeps, user: SessionUser, input: UpdateWindowsKeyInput): Promise<WindowsKey> {
  return deps.db.transaction().execute(async (trx) => {
    const current = await repo.findKeyForUpdate(trx, input.key);
    if (!current) throw new AppError('NOT_FOUND', windowsKeyMessages.notFound);
    const releasing = input.status === 'Inactive';
    if (releasing && current.status !== 'Active') throw new AppError('CONFLICT', windowsKeyMessages.releaseNotActive);
    if (!releasing && current.status === 'Active') throw new AppError('CONFLICT', windowsKeyMessages.claimNotFree);
    const location = releasing ? current.location : input.location;
    const row = await repo.setKey(trx, user.id, input.key, { status: input.status, location });
    const action = releasing ? 'release' : input.status === 'Unused' ? 'unused' : 'claim';
    await repo.recordEvent(trx, { key: row.key, action, status: row.status, location: row.location, user_id: user.id });
    return { key: row.key, status: row.status, location: row.location, changedBy: user.name, changedAt: iso(row.changed_at) };
  });
}
