import fsp from 'node:fs/promises';
import path from 'node:path';
import { backupMessages, type BackupRun, type BackupStatus } from '@site/contracts';
import { BackupBusyError, backupRunning, backupTo, foldersOf, type BackupResult } from './backups.write.ts';
import type { AppDeps } from '../../deps.ts';
import * as repo from './backups.repository.ts';
import { ARCHIVE_NAME, archiveName, chooseKept, latestSlot, nextSlot } from './backups.schedule.ts';
import type { BackupRunRecord } from './backups.tables.ts';

/** The media store, when given, is where media/ entries come from (the server's own); else MEDIA_DIR's files. */
type BackupDeps = Pick<AppDeps, 'db' | 'config'> & { media?: AppDeps['media'] };

const HEARTBEAT_MS = 30_000;
/** A run whose heartbeat is older than this was interrupted (the process that ran it is gone). */
const STALE_MS = 4 * HEARTBEAT_MS;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs one backup recorded in backup_runs (row `id`): its heartbeat while it runs, then its outcome. */
async function runRecorded(deps: BackupDeps, id: number, file: string, signal?: AbortSignal): Promise<BackupResult> {
  const beat = setInterval(() => void repo.heartbeat(deps.db, id, new Date()).catch(() => {}), HEARTBEAT_MS);
  try {
    const result = await backupTo(deps.db, foldersOf(deps.config, deps.media), file, signal);
    await repo.finishRun(deps.db, id, { now: new Date(), sizeBytes: result.size, verified: true, error: null });
    return result;
  } catch (error) {
    await repo.finishRun(deps.db, id, { now: new Date(), sizeBytes: null, verified: false, error: messageOf(error) }).catch(() => {});
    throw error;
  } finally {
    clearInterval(beat);
  }
}

/** `npm run backup -- FILE` (directly, or through the running server's control socket, which stops it with `signal` when the server stops). */
export async function commandBackup(deps: BackupDeps, file: string, signal?: AbortSignal): Promise<BackupResult> {
  // A second backup in this process is refused by backupTo; it is not worth a row.
  if (backupRunning()) return backupTo(deps.db, foldersOf(deps.config, deps.media), file, signal);
  // What a killed backup left is removed by the next one, whoever starts it.
  await removeStalePartials(deps, new Date());
  const id = await repo.startCommandRun(deps.db, path.resolve(file), new Date());
  return runRecorded(deps, id, file, signal);
}

const PARTIAL = '.partial';

/** Whether the process of a run on this machine still exists (this process: while it writes a backup). */
function processAlive(pid: number): boolean {
  if (pid === process.pid) return backupRunning();
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a run recorded as unfinished is still being written: its heartbeat is recent and, when it
 * runs on this machine, its process still exists (a killed `npm run backup` is seen at once, not
 * only once its heartbeat is two minutes old). Another machine's run is judged by its heartbeat.
 */
function stillRunning(run: { heartbeat_at: Date; pid: number | null; host: string | null }, now: Date): boolean {
  if (now.getTime() - run.heartbeat_at.getTime() >= STALE_MS) return false;
  return run.pid === null || run.host !== repo.thisProcess().host || processAlive(run.pid);
}

/**
 * Removes the partial files of backups that no longer run (a process killed mid-backup leaves its
 * FILE.partial, often hundreds of MB): in BACKUP_DIR every `site-....tar.gz.partial` of the
 * scheduler's, and anywhere the partial file of a run recorded in backup_runs that was interrupted.
 * A run still being written (stillRunning: here, or in another instance on the same PostgreSQL)
 * keeps its file. Each backup does this first, the scheduler's and the command's.
 */
export async function removeStalePartials(deps: BackupDeps, now: Date): Promise<string[]> {
  const runs = await repo.unfinishedRuns(deps.db);
  const running = new Set(runs.filter((r) => stillRunning(r, now)).map((r) => path.resolve(r.file) + PARTIAL));
  const stale = new Set(runs.map((r) => path.resolve(r.file) + PARTIAL));
  const { dir } = deps.config.backup;
  if (dir) {
    const names = await fsp.readdir(dir).catch(() => [] as string[]);
    for (const name of names) if (name.endsWith(PARTIAL) && ARCHIVE_NAME.test(name.slice(0, -PARTIAL.length))) stale.add(path.resolve(dir, name));
  }
  const removed: string[] = [];
  for (const partial of stale) {
    if (running.has(partial)) continue;
    try {
      await fsp.rm(partial);
      removed.push(partial);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}

export type DueOutcome = { slot: Date; file: string; result?: BackupResult; error?: string; removed: string[] };

/**
 * The scheduler's step: when BACKUP_DIR is set and the latest scheduled time has no run yet (also
 * one missed while the server was down), claims it, writes and verifies the archive, then applies
 * BACKUP_KEEP. Returns null when there was nothing to do here (not due, another instance has it,
 * or a backup already runs in this process).
 */
export async function runDue(deps: BackupDeps, now: Date, signal?: AbortSignal): Promise<DueOutcome | null> {
  const { dir, at } = deps.config.backup;
  if (!dir || backupRunning()) return null;
  await removeStalePartials(deps, now);
  const slot = latestSlot(at, now);
  if (await repo.hasSlot(deps.db, slot)) return null;
  const file = path.join(dir, archiveName(slot));
  const id = await repo.claimSlot(deps.db, slot, file, now);
  if (id === null) return null;
  try {
    const result = await runRecorded(deps, id, file, signal);
    return { slot, file, result, removed: await prune(deps, new Date()) };
  } catch (error) {
    // `npm run backup` got this process first: the time is given back and tried again at the next wake.
    if (error instanceof BackupBusyError) {
      await repo.releaseSlot(deps.db, id);
      return null;
    }
    return { slot, file, error: messageOf(error), removed: [] };
  }
}

/** Removes the scheduler's own archives that BACKUP_KEEP no longer keeps; nothing else in BACKUP_DIR. */
export async function prune(deps: BackupDeps, now: Date): Promise<string[]> {
  const { dir, keep } = deps.config.backup;
  if (!dir) return [];
  const archives = (await repo.keptArchives(deps.db)).map((a) => ({ ...a, at: a.slot ?? a.started_at }));
  const kept = chooseKept(archives, keep);
  const removed: string[] = [];
  for (const archive of archives) {
    if (kept.has(archive.id)) continue;
    if (path.dirname(archive.file) !== path.resolve(dir) || !ARCHIVE_NAME.test(path.basename(archive.file))) continue;
    await fsp.rm(archive.file, { force: true });
    await repo.markRemoved(deps.db, archive.id, now);
    removed.push(archive.file);
  }
  return removed;
}

const isRunning = (run: BackupRunRecord, now: Date) => run.finished_at === null && now.getTime() - run.heartbeat_at.getTime() < STALE_MS;

function toRun(run: BackupRunRecord): BackupRun {
  const interrupted = run.finished_at === null;
  return {
    kind: run.kind,
    startedAt: run.started_at.toISOString(),
    finishedAt: run.finished_at?.toISOString() ?? null,
    file: path.basename(run.file),
    sizeBytes: run.size_bytes === null ? null : Number(run.size_bytes),
    verified: run.verified,
    error: interrupted ? backupMessages.interrupted : run.error,
    removed: run.removed_at !== null,
  };
}

/** What the Admin page shows: the last backup, one in progress, and the next scheduled time. */
export async function status(deps: BackupDeps, now: Date): Promise<BackupStatus> {
  const { dir, at, keep } = deps.config.backup;
  const runs = await repo.latestRuns(deps.db, 10);
  const running = runs.find((r) => isRunning(r, now));
  const last = runs.find((r) => !isRunning(r, now));
  return {
    scheduled: dir !== null,
    at,
    keep,
    last: last ? toRun(last) : null,
    running: running ? { ...toRun(running), error: null } : null,
    next: dir ? nextSlot(at, now).toISOString() : null,
  };
}
