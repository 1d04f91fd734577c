import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { backupMessages } from '@site/contracts';
import { buildApp, createDeps } from '../../src/app.ts';
import { claimSlot } from '../../src/areas/backups/backups.repository.ts';
import { archiveName, chooseKept, latestSlot, nextSlot } from '../../src/areas/backups/backups.schedule.ts';
import { commandBackup, runDue, status } from '../../src/areas/backups/backups.service.ts';
import { ConfigError, parseBackupKeep } from '../../src/config.ts';
import { trustOf } from '../../src/areas/backups/backups.key.ts';
import { verifyArchive } from '../../src/areas/backups/backups.verify.ts';
import { backupTo, foldersOf, keyFileOf } from '../../src/areas/backups/backups.write.ts';
import { createDb, type Database } from '../../src/db/database.ts';
import { callerFor, createTestDb, createUser, databases, testConfig, type TestDb } from '../helpers.ts';
import { useCleanup } from './site-data.ts';

/** Local times, as BACKUP_AT is read. */
const local = (month: number, day: number, hour: number, minute = 0) => new Date(2026, month - 1, day, hour, minute);

describe('the schedule', () => {
  it('is due at the latest BACKUP_AT and next at the following one, in local time', () => {
    expect(latestSlot('03:00', local(11, 24, 2, 59))).toEqual(local(11, 23, 3));
    expect(latestSlot('03:00', local(11, 24, 3))).toEqual(local(11, 24, 3));
    expect(nextSlot('03:00', local(11, 24, 3))).toEqual(local(11, 25, 3));
    expect(nextSlot('23:45', local(12, 31, 23, 50))).toEqual(new Date(2027, 0, 1, 23, 45));
    expect(archiveName(local(11, 4, 3, 5))).toBe('site-2026-11-04-0305.tar.gz');
  });

  it('keeps the newest of the last N days, weeks and months, and always the newest', () => {
    // 1-20 November 2026 (the 1st is a Sunday, the 16th a Monday).
    const archives = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, at: local(11, i + 1, 3) }));
    expect([...chooseKept(archives, { days: 3, weeks: 2, months: 1 })].sort((a, b) => a - b)).toEqual([15, 18, 19, 20]);
    expect([...chooseKept(archives, { days: 0, weeks: 0, months: 1 })]).toEqual([20]);
    const withOctober = [...archives, { id: 99, at: local(10, 31, 3) }, { id: 98, at: local(10, 2, 3) }];
    expect([...chooseKept(withOctober, { days: 1, weeks: 0, months: 3 })].sort((a, b) => a - b)).toEqual([20, 99]);
  });

  it('reads BACKUP_KEEP and BACKUP_AT or refuses them with the variable named', () => {
    expect(parseBackupKeep('7d,4w,6m')).toEqual({ days: 7, weeks: 4, months: 6 });
    expect(parseBackupKeep(' 14d ')).toEqual({ days: 14, weeks: 0, months: 0 });
    for (const bad of ['', '7x', '7d,8d', '0d', 'd7', '7d;4w']) expect(parseBackupKeep(bad), bad).toBeNull();
    expect(testConfig().backup).toEqual({ dir: null, at: '03:00', keep: { days: 7, weeks: 4, months: 6 } });
    expect(() => testConfig({ BACKUP_AT: '3am' })).toThrow(new ConfigError('Invalid BACKUP_AT: BACKUP_AT must be a time of day as HH:MM (03:00)'));
    expect(() => testConfig({ BACKUP_KEEP: 'forever' })).toThrow(/Invalid BACKUP_KEEP/);
  });
});

describe.each(databases)('the backup scheduler (%s)', (kind) => {
  const { cleanup, tmp } = useCleanup('site-scheduler-');
  const site = async (env: Record<string, string> = {}) => {
    const handle: TestDb = await createTestDb(kind);
    cleanup.push(() => handle.close());
    const root = tmp();
    fs.mkdirSync(path.join(root, 'media'));
    fs.writeFileSync(path.join(root, 'media', 'photo.jpg'), 'jpeg bytes');
    const config = testConfig({ DATA_DIR: path.join(root, 'data'), MEDIA_DIR: path.join(root, 'media'), BACKUP_DIR: path.join(root, 'backups'), ...env });
    return { handle, config, deps: { db: handle.db, config }, dir: path.join(root, 'backups') };
  };

  it('writes, verifies and records the due backup once, and the Admin status shows it and the next', async () => {
    const { handle, config, deps, dir } = await site();
    const now = local(11, 24, 9, 30);
    expect(await status(deps, now)).toEqual({ scheduled: true, at: '03:00', keep: { days: 7, weeks: 4, months: 6 }, last: null, running: null, next: local(11, 25, 3).toISOString() });

    // The server was not running at 03:00: the missed backup runs now.
    const outcome = await runDue(deps, now);
    expect(outcome?.error).toBeUndefined();
    expect(outcome?.file).toBe(path.join(dir, 'site-2026-11-24-0300.tar.gz'));
    expect(fs.readdirSync(dir)).toEqual(['site-2026-11-24-0300.tar.gz']);
    expect((await verifyArchive(path.join(dir, 'site-2026-11-24-0300.tar.gz'), await trustOf(keyFileOf(foldersOf(config))))).manifest.entries.map((e) => e.name)).toContain('media/photo.jpg');
    expect(await runDue(deps, local(11, 24, 23, 0))).toBeNull();

    const owner = await createUser(createDeps(config, handle.db), 'Owner', 3);
    const shown = await callerFor(createDeps(config, handle.db), owner).backups.status();
    expect(shown.last).toMatchObject({
      kind: 'scheduled',
      file: 'site-2026-11-24-0300.tar.gz',
      sizeBytes: fs.statSync(path.join(dir, 'site-2026-11-24-0300.tar.gz')).size,
      verified: true,
      error: null,
      removed: false,
    });
    expect(shown.running).toBeNull();
    expect(shown.next).toBe(nextSlot('03:00', new Date()).toISOString());
  }, 120_000);

  it('lets one of two servers on the database claim each scheduled time', async () => {
    const { handle, deps, dir } = await site();
    let second: { db: Database; close: () => Promise<void> };
    if (kind === 'postgres' && handle.url) second = await createDb({ kind: 'postgres', url: handle.url });
    else second = { db: handle.db.withoutPlugins(), close: async () => {} };
    cleanup.push(() => second.close());
    const slot = local(11, 24, 3);
    const claims = await Promise.all([claimSlot(handle.db, slot, 'a', slot), claimSlot(second.db, slot, 'b', slot)]);
    expect(claims.filter((id) => id !== null)).toHaveLength(1);
    // The claimed time is not run again by either; the next one is.
    expect(await runDue({ ...deps, db: second.db }, local(11, 24, 4))).toBeNull();
    expect(await runDue(deps, local(11, 24, 4))).toBeNull();
    expect((await runDue({ ...deps, db: second.db }, local(11, 25, 4)))?.file).toBe(path.join(dir, 'site-2026-11-25-0300.tar.gz'));
  }, 120_000);

  it('removes the partial files of killed backups before each scheduled run, and no other file', async () => {
    const { deps, dir } = await site();
    fs.mkdirSync(dir, { recursive: true });
    const now = local(11, 24, 9, 30);
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const killed = path.join(dir, 'site-2026-11-20-0300.tar.gz.partial');
    const notOurs = path.join(dir, 'notes.partial');
    const elsewhere = tmp();
    const interrupted = path.join(elsewhere, 'by-hand.tar.gz');
    const writing = path.join(elsewhere, 'now.tar.gz');
    for (const file of [killed, notOurs, `${interrupted}.partial`, `${writing}.partial`]) fs.writeFileSync(file, 'x');
    await deps.db
      .insertInto('backup_runs')
      .values([
        { kind: 'command', file: interrupted, started_at: ago(3_600_000), heartbeat_at: ago(3_000_000) },
        { kind: 'command', file: writing, started_at: ago(60_000), heartbeat_at: ago(10_000) },
      ])
      .execute();
    expect((await runDue(deps, now))?.error).toBeUndefined();
    expect(fs.readdirSync(dir).sort()).toEqual(['notes.partial', 'site-2026-11-24-0300.tar.gz']);
    expect(fs.readdirSync(elsewhere)).toEqual(['now.tar.gz.partial']);
  }, 120_000);

  it("removes a killed command's partial file at the next backup, at once, while a live process's stays", async () => {
    const { deps } = await site();
    const elsewhere = tmp();
    const killed = path.join(elsewhere, 'killed.tar.gz');
    const alive = path.join(elsewhere, 'alive.tar.gz');
    for (const file of [killed, alive]) fs.writeFileSync(`${file}.partial`, 'x');
    // Two `npm run backup` processes on this machine that beat their heartbeat seconds ago: one was killed -9, one still runs.
    const gone = spawn(process.execPath, ['-e', '']);
    await once(gone, 'exit');
    const running = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    cleanup.push(() => void running.kill());
    const recent = new Date(Date.now() - 5_000);
    await deps.db
      .insertInto('backup_runs')
      .values([
        { kind: 'command', file: killed, started_at: recent, heartbeat_at: recent, pid: gone.pid!, host: os.hostname() },
        { kind: 'command', file: alive, started_at: recent, heartbeat_at: recent, pid: running.pid!, host: os.hostname() },
      ])
      .execute();
    await commandBackup(deps, path.join(elsewhere, 'next.tar.gz'));
    expect(fs.readdirSync(elsewhere).sort()).toEqual(['alive.tar.gz.partial', 'next.tar.gz']);
  }, 120_000);

  it('leaves the scheduled time to the next wake while `npm run backup` holds this process', async () => {
    const { deps, dir } = await site();
    const command = backupTo(deps.db, foldersOf(deps.config), path.join(tmp(), 'by-hand.tar.gz'));
    expect(await runDue(deps, local(11, 24, 4))).toBeNull();
    await command;
    expect(await deps.db.selectFrom('backup_runs').select('id').execute()).toEqual([]);
    expect((await runDue(deps, local(11, 24, 4, 10)))?.file).toBe(path.join(dir, 'site-2026-11-24-0300.tar.gz'));
  }, 120_000);

  it('keeps what BACKUP_KEEP says and removes only its own archives', async () => {
    const { deps, dir } = await site({ BACKUP_KEEP: '3d,2w,1m' });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'site-2026-10-01-0300.tar.gz'), 'made by hand');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    for (let day = 1; day <= 20; day++) expect((await runDue(deps, local(11, day, 3, 10)))?.error).toBeUndefined();
    expect(fs.readdirSync(dir).sort()).toEqual([
      'notes.txt',
      'site-2026-10-01-0300.tar.gz',
      'site-2026-11-15-0300.tar.gz',
      'site-2026-11-18-0300.tar.gz',
      'site-2026-11-19-0300.tar.gz',
      'site-2026-11-20-0300.tar.gz',
    ]);
    const rows = await deps.db.selectFrom('backup_runs').select(['file', 'removed_at']).execute();
    expect(rows.filter((r) => r.removed_at !== null)).toHaveLength(16);
  }, 300_000);

  it('records a failed backup with its reason and no archive, and an interrupted one as such', async () => {
    const root = tmp();
    fs.writeFileSync(path.join(root, 'a-file'), '');
    const { deps } = await site({ BACKUP_DIR: path.join(root, 'a-file', 'backups') });
    const outcome = await runDue(deps, local(11, 24, 4));
    expect(outcome?.error).toMatch(/ENOTDIR|not a directory/);
    const failed = (await status(deps, local(11, 24, 4, 1))).last;
    expect(failed).toMatchObject({ kind: 'scheduled', verified: false, sizeBytes: null, file: 'site-2026-11-24-0300.tar.gz' });
    expect(failed?.error).toMatch(/ENOTDIR|not a directory/);
    expect(fs.statSync(path.join(root, 'a-file')).isFile()).toBe(true);

    const long = local(11, 24, 5);
    await deps.db
      .insertInto('backup_runs')
      .values({ kind: 'command', file: '/srv/backups/x.tar.gz', started_at: long, heartbeat_at: long })
      .execute();
    expect(await status(deps, local(11, 24, 5, 1))).toMatchObject({ running: { file: 'x.tar.gz', error: null }, last: { error: failed?.error } });
    expect(await status(deps, local(11, 24, 6))).toMatchObject({ running: null, last: { file: 'x.tar.gz', error: backupMessages.interrupted } });
  }, 120_000);

  it('runs in the server: a started server makes the missed backup, and without BACKUP_DIR nothing', async () => {
    const { handle, config, dir } = await site();
    const app = await buildApp(createDeps(config, handle.db));
    cleanup.push(() => app.close());
    await app.ready();
    await vi.waitFor(() => expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tar.gz'))).toHaveLength(1), { timeout: 60_000, interval: 200 });
    await vi.waitFor(async () => expect((await status({ db: handle.db, config }, new Date())).last?.verified).toBe(true), { timeout: 60_000, interval: 200 });
    expect(fs.readdirSync(dir)).toEqual([archiveName(latestSlot('03:00', new Date()))]);
    expect((await status({ db: handle.db, config: testConfig() }, new Date())).next).toBeNull();
  }, 120_000);
});
