import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEV_DASHBOARD_DOC, devMessages, type DevRun } from '@site/contracts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { devCommandsOf, readDevCommandsFile } from '../../src/areas/dev-dashboard/dev-commands.ts';
import { checkAreasConfig } from '../../src/app.ts';
import { keepTail } from '../../src/areas/dev-dashboard/dev-dashboard.runner.ts';
import { callerFor, cookieFor, createUser, databases, postJson, refusal, type TestServer, useTestServer } from '../helpers.ts';

const node = process.execPath;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-commands-'));
const pidFile = path.join(dir, 'grandchild.pid');

/** Harmless commands: print, fail, and sleep past a short limit leaving a grandchild behind. */
const commands = {
  'dev-pull': { argv: [node, '-e', "console.log('pulled dev'); console.error('a warning'); console.log(process.cwd())"], cwd: dir },
  'prod-pull': {
    argv: [node, '-e', "console.log('pulled prod'); console.error(JSON.stringify(Object.keys(process.env).sort()))"],
    env: { SITE_STAGE: 'prod' },
    passEnv: ['DEV_TEST_PASSED'],
  },
  'dev-launch': {
    argv: [
      node,
      '-e',
      `const c = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
       require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid));
       console.log('launched'); setTimeout(() => {}, 60000);`,
    ],
    timeoutSeconds: 5,
  },
  reboot: { argv: [node, '-e', "console.log('line 1'); console.log('line 2'); process.exit(3)"] },
};
const commandsFile = path.join(dir, 'commands.json');
fs.writeFileSync(commandsFile, JSON.stringify(commands));

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls the run the way the page does, until it has ended. */
async function finished(s: TestServer, api: ReturnType<typeof callerFor>, id: number): Promise<DevRun> {
  for (;;) {
    const run = await api.devDashboard.run({ id });
    if (run.status !== 'running') return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the dev commands file', () => {
  const write = (name: string, content: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return file;
  };

  it('is read and checked at start, and a bad one is reported naming the file and the problem', () => {
    expect(Object.keys(readDevCommandsFile(commandsFile).commands)).toEqual(['dev-pull', 'prod-pull', 'dev-launch', 'reboot']);
    const cases: [string, RegExp][] = [
      ['{', /is not valid JSON/],
      ['{"dev-pull": {"argv": []}}', /dev-pull\.argv: argv must name a program/],
      ['{"dev-pull": {"argv": "git pull"}}', /dev-pull\.argv/],
      ['{"dev-pul": {"argv": ["git"]}}', /unknown key\(s\) dev-pul; the keys are dev-pull, prod-pull, dev-launch, reboot/],
      ['{"reboot": {"argv": ["x"], "cwd": "relative"}}', /reboot\.cwd: cwd must be an absolute path/],
      ['{"reboot": {"argv": ["x"], "timeoutSeconds": 0}}', /reboot\.timeoutSeconds/],
      ['{"reboot": {"argv": ["x"], "shell": true}}', /reboot: unknown key\(s\) shell/],
    ];
    for (const [content, message] of cases) {
      const file = write('bad.json', content);
      expect(() => checkAreasConfig(loadConfig({ DEV_COMMANDS_FILE: file }))).toThrow(ConfigError);
      expect(() => checkAreasConfig(loadConfig({ DEV_COMMANDS_FILE: file }))).toThrow(message);
    }
    expect(() => checkAreasConfig(loadConfig({ DEV_COMMANDS_FILE: path.join(dir, 'missing.json') }))).toThrow(/cannot be read: ENOENT/);
    const unset = loadConfig({});
    expect(unset.devCommandsFile).toBeNull();
    expect(() => checkAreasConfig(unset)).not.toThrow();
    expect(devCommandsOf(unset)).toBeNull();
  });

  it('keeps the end of long output, cut at a line start', () => {
    expect(keepTail('abc\ndef\nghi', 6)).toBe('ghi');
    expect(keepTail('short', 10)).toBe('short');
  });
});

describe.each(databases)('dev dashboard, not configured (%s)', (kind) => {
  const s = useTestServer(kind);

  it('says how to configure it and runs nothing', async () => {
    const api = callerFor(s.deps, await createUser(s.deps, 'owner', 3));
    const status = await api.devDashboard.status();
    expect(status.problem).toBe(
      'No dev commands are configured: set DEV_COMMANDS_FILE to a JSON file naming what each button runs (see docs/dev-dashboard.md).',
    );
    // The page it points to exists and is about this (the README has no such section: it links there).
    expect(fs.readFileSync(path.join(import.meta.dirname, '..', '..', '..', DEV_DASHBOARD_DOC), 'utf8')).toMatch(/^# The developer dashboard\n/);
    expect(devMessages.notConfigured('dev-pull')).toMatch(/; see docs\/dev-dashboard\.md$/);
    expect(status.actions.every((a) => !a.configured)).toBe(true);
    expect(await refusal(api.devDashboard.devPull({}))).toEqual({ code: 'BAD_REQUEST', message: devMessages.notConfigured('dev-pull') });
    expect(await api.devDashboard.runs()).toEqual([]);
  });
});

describe.each(databases)('dev dashboard (%s)', (kind) => {
  const s = useTestServer(kind, { DEV_COMMANDS_FILE: commandsFile });

  it("gives a command PATH, HOME, LANG and what the commands file names, never the server's settings", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { DATABASE_URL: 'postgres://site:hunter2@db/site', SECRET_TOKEN: 'x', DEV_TEST_PASSED: 'yes', LANG: 'C.UTF-8' });
    try {
      const api = callerFor(s.deps, await createUser(s.deps, 'owner', 3));
      const run = await finished(s, api, (await api.devDashboard.prodPull({ confirm: 'pull to prod' })).id);
      const names = JSON.parse(run.output.split('\n')[1] ?? '[]') as string[];
      expect(names.filter((n) => !['PATH', 'HOME', 'LANG'].includes(n))).toEqual(['DEV_TEST_PASSED', 'SITE_STAGE']);
      expect(names).toContain('PATH');
      expect(run.output).not.toContain('hunter2');
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });

  it('runs an action, streams its output into the run, and keeps the audit row', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const api = callerFor(s.deps, owner);
    const status = await api.devDashboard.status();
    expect(status.problem).toBeNull();
    expect(status.actions.map((a) => [a.action, a.configured, a.confirmPhrase])).toEqual([
      ['dev-pull', true, null],
      ['prod-pull', true, 'pull to prod'],
      ['dev-launch', true, null],
      ['reboot', true, 'reboot prod'],
    ]);
    const started = await api.devDashboard.devPull({});
    expect(started).toMatchObject({ action: 'dev-pull', who: 'owner', status: 'running', exitCode: null });
    const run = await finished(s, api, started.id);
    expect(run).toMatchObject({ status: 'succeeded', exitCode: 0 });
    expect(run.output).toContain('pulled dev\n');
    expect(run.output).toContain('a warning\n');
    // The configured cwd is used.
    expect(run.output).toContain(fs.realpathSync(dir));
    expect(run.durationMs).toBeGreaterThanOrEqual(0);

    const failing = await finished(s, api, (await api.devDashboard.reboot({ confirm: 'Reboot Prod' })).id);
    expect(failing).toMatchObject({ status: 'failed', exitCode: 3, output: 'line 1\nline 2\n' });

    const audit = await api.devDashboard.runs();
    expect(audit.map((r) => [r.action, r.who, r.status, r.exitCode])).toEqual([
      ['reboot', 'owner', 'failed', 3],
      ['dev-pull', 'owner', 'succeeded', 0],
    ]);
    expect(audit[0]?.output).toBe('line 1\nline 2');
  });

  it('demands the phrase for prod pull and reboot on tRPC and /api alike, and runs nothing without it', async () => {
    const api = callerFor(s.deps, await createUser(s.deps, 'owner', 3));
    const prodPhrase = { code: 'BAD_REQUEST', message: devMessages.confirm('pull to prod') };
    expect(await refusal(api.devDashboard.prodPull({}))).toEqual(prodPhrase);
    expect(await refusal(api.devDashboard.prodPull({ confirm: 'pull to dev' }))).toEqual(prodPhrase);
    expect(await refusal(api.devDashboard.reboot({ confirm: 'pull to prod' }))).toEqual({
      code: 'BAD_REQUEST',
      message: devMessages.confirm('reboot prod'),
    });
    const cookie = await cookieFor(s.deps, 3, 'boss');
    for (const payload of [undefined, {}, { confirm: 'yes' }, { confirm: ['pull to prod'] }]) {
      const res = await postJson(s.app, '/api/dev/prod-pull', payload, cookie);
      expect(res.statusCode).toBe(400);
    }
    expect((await postJson(s.app, '/api/dev/reboot', { confirm: 'no' }, cookie)).json()).toEqual({ message: devMessages.confirm('reboot prod') });
    expect(await api.devDashboard.runs()).toEqual([]);

    const res = await postJson(s.app, '/api/dev/prod-pull', { confirm: '  PULL TO PROD ' }, cookie);
    expect(res.statusCode).toBe(200);
    const run = await finished(s, api, (res.json() as DevRun).id);
    expect(run).toMatchObject({ action: 'prod-pull', who: 'boss', status: 'succeeded' });
    expect(run.output.split('\n')[0]).toBe('pulled prod');
  });

  it('runs one action at a time, and the time limit kills the whole process group', async () => {
    const api = callerFor(s.deps, await createUser(s.deps, 'owner', 3));
    fs.rmSync(pidFile, { force: true });
    const long = await api.devDashboard.devLaunch({});
    expect(await refusal(api.devDashboard.devPull({}))).toEqual({ code: 'CONFLICT', message: devMessages.busy('dev-launch', 'owner') });
    expect((await api.devDashboard.status()).running?.id).toBe(long.id);
    // Output shows up while the run is still going.
    let live = await api.devDashboard.run({ id: long.id });
    while (!live.output.includes('launched') && live.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      live = await api.devDashboard.run({ id: long.id });
    }
    expect(live.status).toBe('running');
    const run = await finished(s, api, long.id);
    expect(run.status).toBe('timed out');
    expect(run.exitCode).toBeNull();
    expect(run.output).toContain('launched\n');
    expect(run.output).toContain('[stopped: the time limit of 5 s was reached]');
    const grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
    for (let i = 0; i < 50 && isAlive(grandchild); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isAlive(grandchild)).toBe(false);
    // Free again.
    expect((await finished(s, api, (await api.devDashboard.devPull({})).id)).status).toBe('succeeded');
    expect((await api.devDashboard.status()).running).toBeNull();
  });

  it('clears a run left running by a process that died once its time is up', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const api = callerFor(s.deps, owner);
    await s.db
      .insertInto('dev_runs')
      .values({ action: 'reboot', user_id: owner.id, who: 'owner', status: 'running', timeout_seconds: 1 })
      .execute();
    expect(await refusal(api.devDashboard.devPull({}))).toMatchObject({ code: 'CONFLICT' });
    await s.db.updateTable('dev_runs').set({ started_at: new Date(Date.now() - 120_000) } as never).execute();
    const run = await finished(s, api, (await api.devDashboard.devPull({})).id);
    expect(run.status).toBe('succeeded');
    expect((await api.devDashboard.runs()).map((r) => r.status)).toEqual(['succeeded', 'interrupted']);
  });

  it('is refused below level 3', async () => {
    const family = callerFor(s.deps, await createUser(s.deps, 'family', 2));
    expect(await refusal(family.devDashboard.devPull({}))).toMatchObject({ code: 'FORBIDDEN' });
    expect((await postJson(s.app, '/api/dev/dev-pull', {})).statusCode).toBe(401);
    expect(await callerFor(s.deps, await createUser(s.deps, 'owner', 3)).devDashboard.runs()).toEqual([]);
  });
});
