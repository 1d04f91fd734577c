import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createArchive, readArchive, readSmallEntry } from '../../src/areas/backups/backups.archive.ts';
import { trustOf, type Trust } from '../../src/areas/backups/backups.key.ts';
import { restoreFrom } from '../../src/areas/backups/backups.restore.ts';
import { siteSchema } from '../../src/migrations.ts';
import { verifyArchive } from '../../src/areas/backups/backups.verify.ts';
import { BackupError, backupTo, keyFileOf, type BackupFolders } from '../../src/areas/backups/backups.write.ts';
import { createTestDb } from '../helpers.ts';
import { everyTable, useCleanup } from './site-data.ts';

/** Every file and folder under `dir`, relative (what a failed restore must not leave behind). */
const everything = (dir: string) => (fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).sort() : []);

const vouched: Trust = { keyFile: '(none)', key: null, unsigned: true };

/**
 * Archives made in the test (crafted, or a real backup changed afterwards): `--verify` runs restore's
 * own checks, a restore that fails leaves nothing behind and may run again, a signature by the site's
 * key is required, and a backup stops within a file when the server stops.
 */
describe('what restore and --verify accept', () => {
  const { cleanup, tmp } = useCleanup('site-trust-');
  const db = async () => {
    const handle = await createTestDb('pglite');
    cleanup.push(() => handle.close());
    return handle;
  };
  const site = (): BackupFolders => {
    const root = tmp();
    fs.mkdirSync(path.join(root, 'data'));
    return { dataDir: path.join(root, 'data'), mediaDir: path.join(root, 'media'), fivetoolsDir: path.join(root, 'data', '5etools'), backupDir: null };
  };

  /** An unsigned archive of format 2 holding `entries` (name -> content), its manifest listing them all. */
  async function crafted(entries: [string, string | Buffer][], manifest: { tables?: string[] } = {}) {
    const file = path.join(tmp(), 'crafted.tar.gz');
    const writer = await createArchive(file);
    for (const [name, data] of entries) await writer.addBuffer(name, Buffer.from(data));
    const body = { format: 2, createdAt: '2026-11-26T00:00:00Z', migrations: [], tables: manifest.tables ?? [], folders: { data: '', media: '' }, leftOut: [] };
    await writer.addBuffer('manifest.json', Buffer.from(JSON.stringify({ ...body, entries: writer.entries })));
    await writer.finish();
    return file;
  }

  it('refuses in --verify what restore cannot restore: a name too long, an unknown place, an unsafe path, two entries for one file', async () => {
    const long = `data/notes/${'x'.repeat(300)}.txt`;
    await expect(verifyArchive(await crafted([[long, 'x']]), vouched)).rejects.toThrow(/name too long for a file system/);
    await expect(verifyArchive(await crafted([['elsewhere/a.txt', 'x']]), vouched)).rejects.toThrow(/entry this version does not know: elsewhere\/a.txt/);
    await expect(verifyArchive(await crafted([['data/../../escape.txt', 'x']]), vouched)).rejects.toThrow(/unsafe path/);
    await expect(verifyArchive(await crafted([['data/a.txt', 'x'], ['data/./a.txt', 'y']]), vouched)).rejects.toThrow(/two entries restore to the same place/);
    expect(await verifyArchive(await crafted([['data/notes/a.txt', 'x']]), vouched)).toMatchObject({ entries: 1 });
  });

  it('leaves nothing behind when a restore fails, whatever fails, and the same restore then runs', async () => {
    const target = await db();
    const into = site();
    const notes = Array.from({ length: 22 }, (_, i): [string, string] => [`data/notes/n${i}/note.txt`, `note ${i}`]);
    const tooLong = await crafted([...notes, [`data/${'y'.repeat(300)}`, 'last']]);
    const refused = restoreFrom(siteSchema, target.db, into, tooLong, { unsigned: true });
    await expect(refused).rejects.toThrow(BackupError);
    await expect(refused).rejects.toThrow(/name too long/);
    expect(everything(into.dataDir)).toEqual([]);

    // Fails after the files are written (a row the table refuses): the files and the folders made go too.
    const badRow = await crafted([...notes, ['db/users.ndjson', '{"id":"not a number"}\n']], { tables: ['users'] });
    const failed = restoreFrom(siteSchema, target.db, into, badRow, { unsigned: true });
    await expect(failed).rejects.toThrow(BackupError);
    const message = await failed.catch((error: Error) => error.message);
    expect(message).toMatch(/^The restore failed \(.+\); nothing was restored: the files it wrote are removed$/);
    expect(message).not.toContain('\n');
    expect(everything(into.dataDir)).toEqual([]);
    expect(everything(into.mediaDir)).toEqual([]);

    await restoreFrom(siteSchema, target.db, into, await crafted(notes), { unsigned: true });
    expect(fs.readFileSync(path.join(into.dataDir, 'notes', 'n21', 'note.txt'), 'utf8')).toBe('note 21');
  }, 120_000);

  it('restores only archives signed with the site key, unless the owner vouches for one with --unsigned', async () => {
    const source = await db();
    const folders = site();
    await source.db.insertInto('users').values({ name: 'Owner', name_key: 'owner', password_hash: 'x', level: 3 }).execute();
    fs.writeFileSync(path.join(folders.dataDir, 'notes.txt'), 'kept');
    const archive = path.join(tmp(), 'site.tar.gz');
    await backupTo(source.db, folders, archive);
    const key = keyFileOf(folders);
    expect(fs.statSync(key).mode & 0o777).toBe(0o600);
    const trusted = await trustOf(key);
    expect((await verifyArchive(archive, trusted)).entries).toBeGreaterThan(1);

    // Someone with the archive but not the key plants an admin account and makes the sums again.
    const entries: [string, Buffer][] = [];
    let signature: Buffer | undefined;
    for await (const entry of readArchive(archive)) {
      const data = await readSmallEntry(entry);
      if (entry.name === 'manifest.sig') signature = data;
      else if (entry.name !== 'manifest.json') entries.push([entry.name, data]);
    }
    const users = entries.find(([name]) => name === 'db/users.ndjson');
    if (!users || !signature) throw new Error('the archive has no users table or no signature');
    const owner = JSON.parse(users[1].toString('utf8').split('\n')[0] ?? '{}') as Record<string, unknown>;
    users[1] = Buffer.concat([users[1], Buffer.from(`${JSON.stringify({ ...owner, id: 99, name: 'Mallory', name_key: 'mallory', level: 3 })}\n`)]);
    const resigned = async (withSignature: Buffer | null) => {
      const file = path.join(tmp(), 'tampered.tar.gz');
      const writer = await createArchive(file);
      for (const [name, data] of entries) await writer.addBuffer(name, data);
      const original = JSON.parse(JSON.stringify((await verifyArchive(archive, trusted)).manifest)) as object;
      await writer.addBuffer('manifest.json', Buffer.from(JSON.stringify({ ...original, entries: writer.entries }, null, 1)));
      if (withSignature) await writer.addBuffer('manifest.sig', withSignature);
      await writer.finish();
      return file;
    };
    const kept = await resigned(signature);
    const dropped = await resigned(null);
    await expect(verifyArchive(kept, trusted)).rejects.toThrow(/signature does not match its manifest/);
    await expect(verifyArchive(dropped, trusted)).rejects.toThrow(/is not signed/);

    const target = await db();
    const into = { ...site(), keyFile: key };
    await expect(restoreFrom(siteSchema, target.db, into, kept)).rejects.toThrow(/signature does not match/);
    await expect(restoreFrom(siteSchema, target.db, into, dropped)).rejects.toThrow(/--unsigned/);
    expect(await target.db.selectFrom('users').select('name').execute()).toEqual([]);
    expect(everything(into.dataDir)).toEqual([]);

    // A fresh machine without the key, or with another key: refused with what to do.
    await expect(restoreFrom(siteSchema, target.db, site(), archive)).rejects.toThrow(/there is no key at .*backup\.key to check it/);
    const other = site();
    fs.writeFileSync(path.join(other.dataDir, 'backup.key'), `${randomBytes(32).toString('hex')}\n`);
    await expect(restoreFrom(siteSchema, target.db, other, archive)).rejects.toThrow(/signed with another key/);

    // The key carried over restores it; the key itself is in no archive.
    await restoreFrom(siteSchema, target.db, into, archive);
    expect((await everyTable(target.db)).users).toEqual((await everyTable(source.db)).users);
    const names: string[] = [];
    for await (const entry of readArchive(archive)) names.push(entry.name);
    expect(names.filter((n) => n.includes('backup.key'))).toEqual([]);

    // The owner vouches for an unsigned archive: it restores.
    const vouchedTarget = await db();
    await restoreFrom(siteSchema, vouchedTarget.db, site(), dropped, { unsigned: true });
    expect((await vouchedTarget.db.selectFrom('users').select('name').orderBy('id').execute()).map((u) => u.name)).toEqual(['Owner', 'Mallory']);
  }, 180_000);

  it('stops within a large file when the server stops, and leaves no partial file', async () => {
    const source = await db();
    const folders = site();
    fs.writeFileSync(path.join(folders.dataDir, 'big.bin'), randomBytes(64 * 1024 * 1024));
    const archive = path.join(tmp(), 'site.tar.gz');
    const stopping = new AbortController();
    const backup = backupTo(source.db, folders, archive, stopping.signal);
    backup.catch(() => {});
    // The last file is being copied: the server stops.
    const partial = `${archive}.partial`;
    while (!(fs.existsSync(partial) && fs.statSync(partial).size > 1024 * 1024)) await new Promise((resolve) => setTimeout(resolve, 5));
    stopping.abort();
    await expect(backup).rejects.toThrow(/stopped before the backup finished/);
    expect(fs.readdirSync(path.dirname(archive))).toEqual([]);
  }, 120_000);
});
