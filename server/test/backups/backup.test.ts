import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import * as tar from 'tar';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_COLORS } from '@site/contracts';
import { createDeps } from '../../src/app.ts';
import * as auth from '../../src/areas/auth/auth.service.ts';
import * as settings from '../../src/areas/settings/settings.service.ts';
import { createArchive, readArchive } from '../../src/areas/backups/backups.archive.ts';
import { trustOf, type Trust } from '../../src/areas/backups/backups.key.ts';
import { verifyArchive, type BackupManifest } from '../../src/areas/backups/backups.verify.ts';
import { BackupBusyError, BackupError, backupTo, keyFileOf, type BackupFolders } from '../../src/areas/backups/backups.write.ts';
import { restoreFrom } from '../../src/areas/backups/backups.restore.ts';
import { siteSchema } from '../../src/migrations.ts';
import { createTestDb, databases, testConfig, type TestDb } from '../helpers.ts';
import { pictureRow } from '../pictures/pictures.fixtures.ts';
import { everyTable, filesOf, useCleanup, writeFiles } from './site-data.ts';

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
/** The crafted archives below carry no signature: their checks are the manifest's. */
const unsigned: Trust = { keyFile: '(none)', key: null, unsigned: true };

describe.each(databases)('backup and restore (%s)', (kind) => {
  const { cleanup, tmp } = useCleanup('site-backup-test-');
  const db = async () => {
    const handle: TestDb = await createTestDb(kind);
    cleanup.push(() => handle.close());
    return handle;
  };
  /** A site whose media folder is outside its data folder, with the 5eTools copy inside it. */
  const site = (): BackupFolders => {
    const root = tmp();
    return { dataDir: path.join(root, 'data'), mediaDir: path.join(root, 'media-elsewhere'), fivetoolsDir: path.join(root, 'data', '5etools'), backupDir: null };
  };

  it('writes 2,000 files, a few-MB file and MEDIA_DIR outside DATA_DIR in one verified archive, and restores it', async () => {
    const source = await db();
    const folders = site();
    const deps = createDeps(testConfig(), source.db);
    const client = { ip: '127.0.0.1', deviceToken: null }; // the first account is made on the machine itself
    const owner = await auth.signup(deps, { name: 'Owner', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' }, client);
    const friend = await auth.signup(deps, { name: 'Jos\u00e9', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' }, client);
    await deps.devices.issue(friend.id);
    await settings.saveColors(deps, owner, { ...DEFAULT_COLORS, menuColor: '#123456' });
    writeFiles(folders.mediaDir, 2000, 3 * 1024 * 1024);
    fs.mkdirSync(path.join(folders.dataDir, 'pglite'), { recursive: true });
    fs.writeFileSync(path.join(folders.dataDir, 'pglite', 'not-a-user-file'), 'x');
    fs.writeFileSync(path.join(folders.dataDir, 'site.lock'), '{}');
    fs.mkdirSync(path.join(folders.dataDir, 'tmp', 'ytdl'), { recursive: true });
    fs.writeFileSync(path.join(folders.dataDir, 'tmp', 'ytdl', 'half.part'), 'x');
    fs.mkdirSync(path.join(folders.mediaDir, '.tmp'), { recursive: true });
    fs.writeFileSync(path.join(folders.mediaDir, '.tmp', 'upload'), 'x');
    fs.mkdirSync(path.join(folders.fivetoolsDir, 'data'), { recursive: true });
    fs.writeFileSync(path.join(folders.fivetoolsDir, 'data', 'spells.json'), '{}');
    fs.writeFileSync(path.join(folders.dataDir, 'notes.txt'), 'kept');

    const archive = path.join(tmp(), 'nested', 'site.tar.gz');
    const { manifest, size } = await backupTo(source.db, folders, archive);
    expect(size).toBe(fs.statSync(archive).size);
    expect(fs.existsSync(`${archive}.partial`)).toBe(false);
    const names = manifest.entries.map((e) => e.name);
    expect(names.filter((n) => n.startsWith('media/'))).toHaveLength(2002);
    expect(names).toContain('data/notes.txt');
    expect(names.filter((n) => /pglite|site\.lock|5etools|\.tmp|tmp\/ytdl/.test(n))).toEqual([]);
    expect(manifest.tables).toContain('users');
    expect(manifest.leftOut[0]).toMatchObject({ path: folders.fivetoolsDir, restore: 'npm run 5etools -- install PATH' });
    const video = manifest.entries.find((e) => e.name === 'media/video.mp4');
    expect(video).toEqual({ name: 'media/video.mp4', size: 3 * 1024 * 1024, sha256: sha256(path.join(folders.mediaDir, 'video.mp4')) });

    // The manifest comes last but for its signature, and every entry checks out against it.
    const order: string[] = [];
    for await (const entry of readArchive(archive)) order.push(entry.name);
    expect(order.slice(-2)).toEqual(['manifest.json', 'manifest.sig']);
    expect((await verifyArchive(archive, await trustOf(keyFileOf(folders)))).entries).toBe(manifest.entries.length);

    const target = await db();
    // Another machine: the site's key is carried there (BACKUP_KEY_FILE), not in the archive.
    const into = { ...site(), keyFile: keyFileOf(folders) };
    await restoreFrom(siteSchema, target.db, into, archive);
    expect(await everyTable(target.db)).toEqual(await everyTable(source.db));
    expect(await filesOf(into)).toEqual(await filesOf(folders));
    expect(fs.existsSync(into.fivetoolsDir)).toBe(false);

    // The restored site works: a login, and a new account gets the next id.
    const restored = createDeps(testConfig(), target.db);
    expect((await auth.login(restored, { name: 'owner', password: 'walnut-table-9' }, { ip: '10.0.0.2', deviceToken: null })).user.id).toBe(owner.id);
    const third = await auth.signup(restored, { name: 'Third', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' }, client);
    expect(third.id).toBe(friend.id + 1);

    // Restoring again over a site that has data is refused.
    await expect(restoreFrom(siteSchema, target.db, { ...site(), keyFile: keyFileOf(folders) }, archive)).rejects.toThrow(/database is not empty/);
  }, 180_000);

  it('leaves nothing with the backup\'s name when it fails, and runs one backup at a time', async () => {
    const source = await db();
    const folders = site();
    writeFiles(folders.mediaDir, 20, 0);
    const archive = path.join(tmp(), 'site.tar.gz');
    const stopped = new AbortController();
    stopped.abort();
    await expect(backupTo(source.db, folders, archive, stopped.signal)).rejects.toThrow(/stopped before the backup finished/);
    expect(fs.readdirSync(path.dirname(archive))).toEqual([]);

    // A full disk (the partial file is /dev/full): a message, and neither FILE nor FILE.partial stays.
    fs.writeFileSync(path.join(folders.mediaDir, 'big.bin'), randomBytes(3 * 1024 * 1024));
    fs.symlinkSync('/dev/full', `${archive}.partial`);
    await expect(backupTo(source.db, folders, archive)).rejects.toThrow(/ENOSPC/);
    expect(fs.readdirSync(path.dirname(archive))).toEqual([]);

    const first = backupTo(source.db, folders, archive);
    await expect(backupTo(source.db, folders, `${archive}.2`)).rejects.toBeInstanceOf(BackupBusyError);
    await first;
    expect(fs.readdirSync(path.dirname(archive))).toEqual(['site.tar.gz']);
    // The flag is released: the next backup runs.
    await backupTo(source.db, folders, `${archive}.3`);
  }, 60_000);

  it('restores an archive of format 1 (before the manifest of sums), which --verify names', async () => {
    const source = await db();
    const deps = createDeps(testConfig(), source.db);
    await auth.signup(deps, { name: 'Old', password: 'walnut-table-9', confirmPassword: 'walnut-table-9' }, { ip: '127.0.0.1', deviceToken: null });
    const stage = tmp();
    const rows = await everyTable(source.db);
    fs.mkdirSync(path.join(stage, 'db'));
    fs.writeFileSync(path.join(stage, 'db', 'users.json'), JSON.stringify(rows.users));
    const applied = (await source.db.selectFrom('kysely_migration' as never).select('name' as never).execute()) as { name: string }[];
    fs.writeFileSync(path.join(stage, 'manifest.json'), JSON.stringify({ format: 1, createdAt: '2026-11-01T00:00:00Z', migrations: applied.map((m) => m.name), tables: ['users'] }));
    fs.mkdirSync(path.join(stage, 'files', 'media'), { recursive: true });
    fs.writeFileSync(path.join(stage, 'files', 'media', 'old.txt'), 'from format 1');
    const archive = path.join(tmp(), 'old.tar.gz');
    await tar.c({ gzip: true, file: archive, cwd: stage, portable: true }, ['manifest.json', 'db', 'files']);

    await expect(verifyArchive(archive, unsigned)).rejects.toThrow(/format 1\) and has no checksums/);
    const target = await db();
    const into = site();
    // Made before archives were signed: restored only when the owner vouches for it.
    await restoreFrom(siteSchema, target.db, into.dataDir, archive, { unsigned: true });
    expect(fs.readFileSync(path.join(into.dataDir, 'media', 'old.txt'), 'utf8')).toBe('from format 1');
    expect((await everyTable(target.db)).users).toEqual(rows.users);
  }, 60_000);

  it('redoes what data migrations newer than the archive did: search documents made again, videos read for places again', async () => {
    const source = await db();
    await source.db.insertInto('pictures').values([pictureRow(null, 'Harbour', [2024, 5, 1]), { ...pictureRow(null, 'Boat ride', [2024, 5, 2]), stem: 'b'.repeat(32), file_type: 'mp4', mime: 'video/mp4' }]).execute();
    const [photo, video] = await source.db.selectFrom('pictures').select('id').orderBy('id').execute();
    await source.db.insertInto('picture_places').values([
      { picture_id: photo!.id, lat: 36.72, lon: -4.42, town: 'Málaga', country: 'Spain' },
      { picture_id: video!.id, lat: null, lon: null, town: null, country: null },
    ]).execute();
    // The document as the search sources before accents were folded made it.
    await sql`update picture_search set document = to_tsvector('simple', 'Harbour Málaga Spain') where picture_id = ${photo!.id}`.execute(source.db);
    const stage = tmp();
    const rows = await everyTable(source.db);
    const tables = ['pictures', 'picture_places', 'picture_search'] as const;
    fs.mkdirSync(path.join(stage, 'db'));
    for (const table of tables) fs.writeFileSync(path.join(stage, 'db', `${table}.json`), JSON.stringify(rows[table]));
    const applied = (await source.db.selectFrom('kysely_migration' as never).select('name' as never).execute()) as { name: string }[];
    const older = applied.map((m) => m.name).filter((name) => name !== '20261203_pictures_search_fold' && name !== '20261203_pictures_video_places');
    fs.writeFileSync(path.join(stage, 'manifest.json'), JSON.stringify({ format: 1, createdAt: '2026-12-01T00:00:00Z', migrations: older, tables }));
    const archive = path.join(tmp(), 'older.tar.gz');
    await tar.c({ gzip: true, file: archive, cwd: stage, portable: true }, ['manifest.json', 'db']);

    const target = await db();
    await restoreFrom(siteSchema, target.db, site().dataDir, archive, { unsigned: true });
    const found = await sql<{ picture_id: number }>`select picture_id from picture_search where document @@ to_tsquery('simple', site_fold('malaga'))`.execute(target.db);
    expect(found.rows.map((r) => r.picture_id)).toEqual([photo!.id]);
    expect(await target.db.selectFrom('picture_places').select(['picture_id', 'town']).execute()).toEqual([{ picture_id: photo!.id, town: 'Málaga' }]);

    // An archive made under every migration is loaded as it is.
    fs.writeFileSync(path.join(stage, 'manifest.json'), JSON.stringify({ format: 1, createdAt: '2026-12-04T00:00:00Z', migrations: applied.map((m) => m.name), tables }));
    const current = path.join(tmp(), 'current.tar.gz');
    await tar.c({ gzip: true, file: current, cwd: stage, portable: true }, ['manifest.json', 'db']);
    const again = await db();
    await restoreFrom(siteSchema, again.db, site().dataDir, current, { unsigned: true });
    expect(await again.db.selectFrom('picture_places').select('picture_id').orderBy('picture_id').execute()).toHaveLength(2);
    const unfolded = await sql<{ picture_id: number }>`select picture_id from picture_search where document @@ to_tsquery('simple', site_fold('malaga'))`.execute(again.db);
    expect(unfolded.rows).toEqual([]);
  }, 60_000);
});

describe('verify', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-verify-'));
  afterEach(() => {
    for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f), { recursive: true, force: true });
  });

  /** An archive of `entries` whose manifest lists `listed` (the same when not given). */
  async function archiveOf(entries: Record<string, string>, listed?: (real: BackupManifest['entries']) => BackupManifest['entries']) {
    const file = path.join(dir, `a${Math.random().toString(16).slice(2)}.tar.gz`);
    const writer = await createArchive(file);
    for (const [name, text] of Object.entries(entries)) await writer.addBuffer(name, Buffer.from(text));
    const manifest = { format: 2, createdAt: new Date().toISOString(), migrations: [], tables: [], folders: { data: '', media: '' }, leftOut: [] };
    await writer.addBuffer('manifest.json', Buffer.from(JSON.stringify({ ...manifest, entries: (listed ?? ((e) => e))([...writer.entries]) })));
    await writer.finish();
    return file;
  }

  it('passes an intact archive and names what differs in one that is not', async () => {
    const good = await archiveOf({ 'db/users.ndjson': '{"id":1}\n', 'media/a.jpg': 'AAAA', 'media/b.jpg': '' });
    expect(await verifyArchive(good, unsigned)).toMatchObject({ entries: 3, bytes: 13 });

    const changed = await archiveOf({ 'media/a.jpg': 'AAAA' }, (e) => e.map((x) => ({ ...x, sha256: '0'.repeat(64) })));
    await expect(verifyArchive(changed, unsigned)).rejects.toThrow('media/a.jpg has a different SHA-256 than the manifest');
    const resized = await archiveOf({ 'media/a.jpg': 'AAAA' }, (e) => e.map((x) => ({ ...x, size: 5 })));
    await expect(verifyArchive(resized, unsigned)).rejects.toThrow('media/a.jpg is 4 bytes, the manifest says 5');
    const missing = await archiveOf({ 'media/a.jpg': 'AAAA' }, (e) => [...e, { name: 'media/gone.jpg', size: 1, sha256: '1'.repeat(64) }]);
    await expect(verifyArchive(missing, unsigned)).rejects.toThrow('media/gone.jpg is missing');
    const extra = await archiveOf({ 'media/a.jpg': 'AAAA', 'media/sneaked.jpg': 'x' }, (e) => e.slice(0, 1));
    await expect(verifyArchive(extra, unsigned)).rejects.toThrow('media/sneaked.jpg is not in the manifest');
  });

  it('refuses an archive cut short, a damaged one and one without a manifest', async () => {
    const good = await archiveOf({ 'media/a.jpg': randomBytes(100_000).toString('base64') });
    const cut = path.join(dir, 'cut.tar.gz');
    fs.writeFileSync(cut, fs.readFileSync(good).subarray(0, 2000));
    await expect(verifyArchive(cut, unsigned)).rejects.toThrow(BackupError);
    const flipped = path.join(dir, 'flipped.tar.gz');
    const bytes = Buffer.from(fs.readFileSync(good));
    const middle = Math.floor(bytes.length / 2);
    bytes.writeUInt8(bytes.readUInt8(middle) ^ 0xff, middle);
    fs.writeFileSync(flipped, bytes);
    await expect(verifyArchive(flipped, unsigned)).rejects.toThrow(/damaged|does not match/);
    const bare = path.join(dir, 'bare.tar.gz');
    const writer = await createArchive(bare);
    await writer.addBuffer('media/a.jpg', Buffer.from('A'));
    await writer.finish();
    await expect(verifyArchive(bare, unsigned)).rejects.toThrow(/has no manifest/);
    await expect(verifyArchive(path.join(dir, 'none.tar.gz'), unsigned)).rejects.toThrow(/does not exist/);
    fs.writeFileSync(path.join(dir, 'text.tar.gz'), 'not an archive');
    await expect(verifyArchive(path.join(dir, 'text.tar.gz'), unsigned)).rejects.toThrow(/damaged or not a .tar.gz backup/);
  });
});
