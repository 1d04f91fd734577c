import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dailySeed, parseReplayFragment } from '@site/game-engine';
import { POLICY_NAMES } from './policies.ts';
import { runSimulation } from './simulate.ts';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));

function sim(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env.INIT_CWD;
  const result = spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { encoding: 'utf8', env, timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('sim CLI', () => {
  it('prints the summary as JSON, identical to runSimulation, timing only on stderr', () => {
    const run = sim('--seed', '5', '--games', '3', '--policy', 'random', '--json');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(runSimulation({ seed: '5', games: 3, policy: 'random' }).summary);
    expect(run.stderr).toMatch(/elapsed/);
  });

  it('rates a daily tower: every policy on the day\'s seed, the same numbers as runSimulation', () => {
    const run = sim('--daily', '2026-11-24', '--games', '3', '--json');
    expect(run.status).toBe(0);
    const seed = dailySeed('2026-11-24');
    const expected = POLICY_NAMES.map((policy) => runSimulation({ seed, sameSeed: true, games: 3, policy }).summary);
    expect(JSON.parse(run.stdout)).toEqual({ date: '2026-11-24', seed: 'daily-2026-11-24', policies: expected });
    const text = sim('--daily', '2026-11-24', '--games', '3');
    expect(text.stdout).toContain('daily tower 2026-11-24: every game on the seed daily-2026-11-24\n');
    for (const summary of expected) {
      expect(text.stdout).toContain(`\n  ${summary.policy.padEnd(16)}${summary.winRate.toFixed(2)} % won, mean ${summary.rounds.mean.toFixed(2)} rounds\n`);
    }
  });

  it('--daily DATE --replay FILE writes the replay of that day\'s tower (the greedy game on the day\'s seed), which verifies; never over a file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-daily-'));
    const file = path.join(dir, 'daily.json');
    try {
      const wrote = sim('--daily', '2026-11-24', '--games', '2', '--replay', file);
      expect(wrote.stderr).not.toContain('cannot be combined');
      expect(wrote.status).toBe(0);
      expect(wrote.stdout).toContain('daily tower 2026-11-24: every game on the seed daily-2026-11-24\n');
      const written = JSON.parse(fs.readFileSync(file, 'utf8')) as { seed: string; finalHash: string; actions: unknown[] };
      expect(written.seed).toBe(dailySeed('2026-11-24'));
      const greedy = runSimulation({ seed: dailySeed('2026-11-24'), sameSeed: true, games: 1, policy: 'greedy', recordFirst: true }).first;
      expect(written.actions).toHaveLength(greedy?.actionCount ?? -1);
      expect(wrote.stderr).toContain(`replay of the daily tower 2026-11-24 played by greedy (seed daily-2026-11-24, ${greedy?.outcome}, ${greedy?.actionCount} actions) written to ${file}\n`);
      expect(wrote.stderr).toContain(`open it at /personal/dungeon-crawler/replay on the site and choose ${file}\n`);
      const ok = sim('--replay', file);
      expect(ok.status).toBe(0);
      expect(ok.stdout).toContain(`OK ${file}\n  seed daily-2026-11-24, ${written.actions.length} actions`);
      expect(ok.stdout).toContain(`final hash ${written.finalHash}`);
      const before = fs.readFileSync(file, 'utf8');
      const again = sim('--daily', '2026-11-24', '--games', '2', '--replay', file);
      expect(again.status).toBe(2);
      expect(again.stderr).toContain(`sim: ${file} already exists; give a new file for the daily's replay (--replay FILE alone checks an existing one)`);
      expect(fs.readFileSync(file, 'utf8')).toBe(before);
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });

  it('exits 2 with the usage on a bad argument, 0 with --help', () => {
    const bad = sim('--games', 'many');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('sim: --games needs a whole number, got "many"');
    expect(bad.stderr).toContain('Usage: npm run sim');
    expect(bad.stdout).toBe('');
    const help = sim('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--replay FILE');
  });

  it('writes a replay, verifies it, and exits 1 on a tampered one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-cli-'));
    const file = path.join(dir, 'game.json');
    try {
      const wrote = sim('--games', '1', '--seed', 'cli', '--replay', file);
      expect(wrote.status).toBe(0);
      const written = JSON.parse(fs.readFileSync(file, 'utf8')) as { seed: string; finalHash: string; actions: unknown[] };
      expect(written.seed).toBe('cli-0');
      expect(wrote.stderr).toContain(`open it at /personal/dungeon-crawler/replay on the site and choose ${file}\n`);
      const link = /or open the link (\S+)\n/.exec(wrote.stderr)?.[1];
      if (link !== undefined) {
        expect(link.startsWith('/personal/dungeon-crawler/replay#')).toBe(true);
        expect(parseReplayFragment(link.slice(link.indexOf('#')))).toEqual({ seed: written.seed, actions: written.actions });
      }
      const ok = sim('--replay', file);
      expect(ok.status).toBe(0);
      expect(ok.stdout).toContain(`OK ${file}`);
      expect(ok.stdout).toContain(`final hash ${written.finalHash}`);
      fs.writeFileSync(file, JSON.stringify({ ...written, finalHash: 'ffffffff' }));
      const bad = sim('--replay', file);
      expect(bad.status).toBe(1);
      expect(bad.stdout).toContain(`FAILED ${file}\n  Final state hash ${written.finalHash} differs from the recorded ffffffff`);
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });
});
