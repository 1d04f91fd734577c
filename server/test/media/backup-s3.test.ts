import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps } from '../../src/app.ts';
import { trustOf } from '../../src/areas/backups/backups.key.ts';
import { restoreFrom } from '../../src/areas/backups/backups.restore.ts';
import { siteSchema } from '../../src/migrations.ts';
import { commandBackup } from '../../src/areas/backups/backups.service.ts';
import { verifyArchive } from '../../src/areas/backups/backups.verify.ts';
import { foldersOf, keyFileOf } from '../../src/areas/backups/backups.write.ts';
import type { MediaStorage } from '../../src/media/index.ts';
import { startTestS3, type TestS3 } from '../../src/testing/s3-server.ts';
import { createTestDb, databases, testConfig, type TestDb } from '../helpers.ts';
import { siteMediaFiles, useTempDirs } from './media.samples.ts';

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function contents(store: MediaStorage): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for await (const file of store.walk()) found[file.key] = sha(await store.readBuffer(file.key));
  return found;
}

describe.each(databases)('backups of a site whose media are in a bucket (%s)', (kind) => {
  let s3: TestS3;
  const cleanup: (() => Promise<void> | void)[] = [];
  const tmp = useTempDirs();
  let files: Record<string, Buffer>;
  beforeAll(async () => {
    s3 = await startTestS3();
    files = await siteMediaFiles();
  });
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
    await s3?.close();
  });

  async function site(prefix: string, env: Record<string, string> = {}) {
    const handle: TestDb = await createTestDb(kind);
    cleanup.push(() => handle.close());
    const dataDir = tmp('bucket-site');
    const deps = createDeps(testConfig({ ...s3.env(prefix), DATA_DIR: dataDir, ...env }), handle.db);
    return { handle, deps, dataDir };
  }

  it('streams the bucket into the signed archive, and a restore writes it into the configured bucket', async () => {
    const source = await site(`${kind}-source/`);
    for (const [key, data] of Object.entries(files)) await source.deps.media.put(key, data);
    const archive = path.join(tmp('bucket-backups'), 'site.tar.gz');
    await commandBackup(source.deps, archive);
    const { manifest } = await verifyArchive(archive, await trustOf(keyFileOf(foldersOf(source.deps.config))));
    const media = manifest.entries.filter((e) => e.name.startsWith('media/'));
    expect(media.map((e) => [e.name, e.size, e.sha256]).sort()).toEqual(Object.entries(files).map(([key, data]) => [`media/${key}`, data.length, sha(data)]).sort());
    expect(manifest.leftOut.map((l) => l.what)).not.toContain(expect.stringContaining('BACKUP_MEDIA'));
    // Nothing of the bucket went through MEDIA_DIR on the disk.
    expect(fs.readdirSync(source.deps.config.mediaDir)).toEqual(['.tmp']);

    const target = await site(`${kind}-target/`);
    fs.copyFileSync(keyFileOf(foldersOf(source.deps.config)), keyFileOf(foldersOf(target.deps.config)));
    await restoreFrom(siteSchema, target.handle.db, foldersOf(target.deps.config, target.deps.media), archive);
    expect(await contents(target.deps.media)).toEqual(Object.fromEntries(Object.entries(files).map(([key, data]) => [key, sha(data)])));
    expect(fs.readdirSync(target.deps.config.mediaDir)).toEqual(['.tmp']);

    // A bucket that already holds files is not written over.
    const again = await site(`${kind}-target/`);
    fs.copyFileSync(keyFileOf(foldersOf(source.deps.config)), keyFileOf(foldersOf(again.deps.config)));
    await expect(restoreFrom(siteSchema, again.handle.db, foldersOf(again.deps.config, again.deps.media), archive)).rejects.toThrow(
      `finance/2024/receipt.pdf already exists in ${again.deps.media.description}: restore into an empty media store`,
    );
  }, 120_000);

  it('with BACKUP_MEDIA=skip leaves the media to the bucket and says so in the manifest', async () => {
    const source = await site(`${kind}-skip/`, { BACKUP_MEDIA: 'skip' });
    for (const [key, data] of Object.entries(files)) await source.deps.media.put(key, data);
    const archive = path.join(tmp('bucket-backups'), 'site.tar.gz');
    await commandBackup(source.deps, archive);
    const { manifest } = await verifyArchive(archive, await trustOf(keyFileOf(foldersOf(source.deps.config))));
    expect(manifest.entries.filter((e) => e.name.startsWith('media/'))).toEqual([]);
    expect(manifest.leftOut[0]).toEqual({
      path: source.deps.media.description,
      what: 'The media (BACKUP_MEDIA=skip): every picture, video, thumbnail and document the database names',
      restore: "bring the store back from its own versioning or copy (docs/storage.md); the database's rows name every file",
    });
  });
});
