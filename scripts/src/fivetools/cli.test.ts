import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliRunner } from '../testing/run-cli.ts';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'site-5etools-cli-'));
const target = path.join(work, 'mirror');
const cli = path.join(import.meta.dirname, 'cli.ts');
const fixture = path.resolve(import.meta.dirname, '../../../server/test/fivetools/fixture-site');

const fivetools = cliRunner(cli, { FIVETOOLS_DIR: target, INIT_CWD: work });

describe('npm run 5etools', () => {
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('installs a folder, reports the status, and explains mistakes', async () => {
    expect(await fivetools('status')).toMatchObject({ code: 0, out: expect.stringContaining('no copy installed') });
    expect((await fivetools('install')).code).toBe(2);
    expect(await fivetools('install', 'nothing-here.zip')).toMatchObject({ code: 1, out: expect.stringContaining(`Nothing at ${path.join(work, 'nothing-here.zip')}`) });
    const done = await fivetools('install', fixture);
    expect(done).toMatchObject({ code: 0, out: expect.stringContaining('Done: ') });
    expect(fs.existsSync(path.join(target, 'index.html'))).toBe(true);
    expect(await fivetools('status')).toMatchObject({ code: 0, out: expect.stringContaining('a copy is installed') });
  }, 120_000);
});
