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
});
