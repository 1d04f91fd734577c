import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp, createDeps } from '../../src/app.ts';
import { serverAreas } from '../../src/areas/index.ts';
import { runDue } from '../../src/areas/backups/backups.service.ts';
import { backupTo, foldersOf, type BackupFolders } from '../../src/areas/backups/backups.write.ts';
import { createDb, type Database } from '../../src/db/database.ts';
import { restoreFrom } from '../../src/areas/backups/backups.restore.ts';
import { siteSchema } from '../../src/migrations.ts';
import { ensureVapidKeys } from '../../src/areas/notifications/push.keys.ts';
import { createTestDb, databases, testConfig } from '../helpers.ts';
import { everyTable, filesOf, fillEveryArea, useCleanup } from './site-data.ts';

/**
 * The restore drill: a site with rows in every table and files in its data and media folders (media
 * outside DATA_DIR) is backed up, restored into an empty data folder (PGlite) and into an empty
 * PostgreSQL database (when TEST_DATABASE_URL is set), and every table and every file compares equal.
 * The archives are signed: the site's key (DATA_DIR/backup.key) is copied to each target first.
 */
describe.each(databases)('restore drill from %s', (kind) => {
  const { cleanup, tmp } = useCleanup('site-drill-');

  it('restores every table and every file, byte for byte, into PGlite and PostgreSQL', async () => {
    const root = tmp();
    const env = { DATA_DIR: path.join(root, 'data'), MEDIA_DIR: path.join(root, 'media'), BACKUP_DIR: path.join(root, 'backups') };
    const source = await createTestDb(kind);
    cleanup.push(() => source.close());
    const config = testConfig(env);
    // The app without its workers: the drill drains the pictures queue itself and runs the scheduler's
    // step, and no notification is sent while the site is compared (a send changes its rows).
    const deps = createDeps({ ...config, backup: { ...config.backup, dir: null } }, source.db);
    const areas = { ...serverAreas, pictures: { ...serverAreas.pictures, worker: undefined }, notifications: { ...serverAreas.notifications, worker: undefined } };
    const app = await buildApp(deps, { areas });
    cleanup.push(() => app.close());
    await fillEveryArea(deps, app);
    // The site's VAPID keys, which the (here stopped) notifications worker makes at its start.
    await ensureVapidKeys(source.db);
    fs.mkdirSync(path.join(env.DATA_DIR, 'notes'), { recursive: true });
    fs.writeFileSync(path.join(env.DATA_DIR, 'notes', 'family tree.txt'), 'Grandma Zoë\n');
    fs.mkdirSync(path.join(env.DATA_DIR, '5etools', 'data'), { recursive: true });
    fs.writeFileSync(path.join(env.DATA_DIR, '5etools', 'data', 'spells.json'), '{}');
    const scheduled = await runDue({ db: source.db, config }, new Date());
    expect(scheduled?.result?.file).toBeDefined();

    const before = await everyTable(source.db);
    // The first account's setup code is deleted once an account exists: empty on every site in use.
    const emptyOnceOwned = new Set(['auth_setup_code']);
    const empty = Object.entries(before).filter(([table, rows]) => (rows as unknown[]).length === 0 && !emptyOnceOwned.has(table));
    expect(empty.map(([table]) => table), 'tables the drill leaves empty').toEqual([]);
    const sourceFolders = foldersOf(config);
    const files = await filesOf(sourceFolders);
    expect(Object.keys(files).some((f) => f.startsWith('media/'))).toBe(true);
    expect(Object.keys(files)).toContain('data/notes/family tree.txt');
    expect(Object.keys(files).filter((f) => f.includes('5etools') || f.includes('backups'))).toEqual([]);

    const archive = path.join(root, 'drill.tar.gz');
    const { manifest } = await backupTo(source.db, sourceFolders, archive);
    expect(manifest.leftOut.map((l) => l.path)).toContain(path.join(env.DATA_DIR, '5etools'));

    const targets: { name: string; open: () => Promise<{ db: Database; close: () => Promise<void> }>; folders: BackupFolders }[] = [];
    const fresh = tmp();
    targets.push({
      name: 'an empty data folder (PGlite)',
      open: () => createDb({ kind: 'pglite', dataDir: path.join(fresh, 'data') }),
      folders: { dataDir: path.join(fresh, 'data'), mediaDir: path.join(fresh, 'data', 'media'), fivetoolsDir: path.join(fresh, 'data', '5etools'), backupDir: null },
    });
    if (databases.includes('postgres')) {
      const other = tmp();
      targets.push({
        name: 'an empty PostgreSQL database',
        open: () => createTestDb('postgres'),
        folders: { dataDir: path.join(other, 'data'), mediaDir: path.join(other, 'pictures'), fivetoolsDir: path.join(other, '5e'), backupDir: null },
      });
    }
    for (const target of targets) {
      // The site's key is carried to the new machine apart from the archive (docs/backups.md).
      fs.mkdirSync(target.folders.dataDir, { recursive: true });
      fs.copyFileSync(path.join(env.DATA_DIR, 'backup.key'), path.join(target.folders.dataDir, 'backup.key'));
      const handle = await target.open();
      try {
        await restoreFrom(siteSchema, handle.db, target.folders, archive);
        expect(await everyTable(handle.db), target.name).toEqual(before);
        expect(await filesOf(target.folders), target.name).toEqual(files);
      } finally {
        await handle.close();
      }
    }
  }, 300_000);
});
