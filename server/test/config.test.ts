import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, findRepoRoot, loadConfig } from '../src/config.ts';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('configuration', () => {
  it('resolves relative paths from the repository root, whatever the working directory', () => {
    expect(findRepoRoot()).toBe(repoRoot);
    // Another process started from an unrelated folder finds the same root.
    const script = `import { findRepoRoot } from ${JSON.stringify(path.join(repoRoot, 'server/src/config.ts'))}; console.log(findRepoRoot());`;
    const run = spawnSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], {
      cwd: os.tmpdir(),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(repoRoot);
    const config = loadConfig({});
    expect(config.dataDir).toBe(path.join(repoRoot, 'data'));
    expect(config.clientDist).toBe(path.join(repoRoot, 'client', 'dist'));
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL must start with postgres:\/\//);
  });

  it('keeps media on the disk by default, and reads the bucket settings of MEDIA_STORE=s3 or says what is missing', () => {
    expect(loadConfig({}).mediaStore).toEqual({ kind: 'local' });
    const bucket = { MEDIA_STORE: 's3', S3_BUCKET: 'family-media', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true' };
    expect(loadConfig({ ...bucket, S3_PREFIX: 'family/', S3_ACCESS_KEY_ID: 'site', S3_SECRET_ACCESS_KEY: 'secret' }).mediaStore).toEqual({
      kind: 's3',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      bucket: 'family-media',
      prefix: 'family/',
      credentials: { accessKeyId: 'site', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
    expect(loadConfig({ ...bucket }).mediaStore).toMatchObject({ prefix: '', credentials: null });
    expect(() => loadConfig({ MEDIA_STORE: 's3' })).toThrow(new ConfigError('MEDIA_STORE=s3 needs S3_BUCKET (and S3_ENDPOINT for anything but AWS S3)'));
    expect(() => loadConfig({ ...bucket, S3_ACCESS_KEY_ID: 'site' })).toThrow(
      new ConfigError("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the SDK's usual sources"),
    );
    expect(() => loadConfig({ MEDIA_STORE: 'ftp' })).toThrow(new ConfigError('Invalid MEDIA_STORE: MEDIA_STORE must be local or s3'));
    expect(() => loadConfig({ ...bucket, S3_PREFIX: 'family' })).toThrow(
      new ConfigError('Invalid S3_PREFIX: S3_PREFIX must be folder names each ending in / (family/ or sites/family/)'),
    );
    expect(() => loadConfig({ ...bucket, S3_BUCKET: 'Family_Media' })).toThrow(/Invalid S3_BUCKET/);
    expect(loadConfig({ BACKUP_MEDIA: 'skip' }).backupMedia).toBe('skip');
  });
});
