import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.ts';
import { createProgress } from './progress.ts';

describe('parseArgs', () => {
  it('has defaults', () => {
    expect(parseArgs([])).toEqual({
      kind: 'run',
      args: { seed: '42', games: 100, policy: 'greedy', maxRounds: 200, json: false, replay: null, daily: null, game: null, set: {} },
    });
  });

  it('reads every option, with a space or an equals sign', () => {
    expect(parseArgs(['--seed', 'abc', '--games=1000', '--policy', 'random', '--json', '--replay', 'g.json', '--max-rounds=50'])).toEqual({
      kind: 'run',
      args: { seed: 'abc', games: 1000, policy: 'random', maxRounds: 50, json: true, replay: 'g.json', daily: null, game: null, set: {} },
    });
  });

  it('reads --daily: a real day, not with --seed or --policy; with --replay FILE', () => {
    expect(parseArgs(['--daily', '2026-11-24', '--games', '1000'])).toEqual({
      kind: 'run',
      args: { seed: '42', games: 1000, policy: 'greedy', maxRounds: 200, json: false, replay: null, daily: '2026-11-24', game: null, set: {} },
    });
    expect(parseArgs(['--daily=2026-02-30'])).toEqual({ kind: 'error', message: '--daily needs a real day written YYYY-MM-DD, got "2026-02-30"' });
    expect(parseArgs(['--daily', '24.11.2026'])).toEqual({ kind: 'error', message: '--daily needs a real day written YYYY-MM-DD, got "24.11.2026"' });
    expect(parseArgs(['--seed', '5', '--daily', '2026-11-24'])).toEqual({
      kind: 'error',
      message: "--daily plays every policy on the day's seed; it cannot be combined with --seed",
    });
    expect(parseArgs(['--daily', '2026-11-24', '--policy', 'random'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--policy') });
    expect(parseArgs(['--daily', '2026-11-24', '--replay', 'day.json'])).toEqual({
      kind: 'run',
      args: { seed: '42', games: 100, policy: 'greedy', maxRounds: 200, json: false, replay: 'day.json', daily: '2026-11-24', game: null, set: {} },
    });
  });

  it('reads report options: repeatable --policy and --set, --compare, --workers, --out, --site', () => {
    expect(parseArgs(['report'])).toEqual({
      kind: 'report',
      args: { seed: '42', games: 100, policies: ['greedy'], maxRounds: 200, set: {}, compare: false, workers: null, out: 'sim-report', site: null },
    });
    const argv = ['report', '--policy', 'random', '--policy=greedy', '--set', 'enemies.drone.hp=2', '--set=waveDecks.lab=drone+runner,bloater', '--compare', '--workers', '3', '--out', 'x', '--site', 'https://home.example.org'];
    expect(parseArgs(argv)).toEqual({
      kind: 'report',
      args: {
        seed: '42',
        games: 100,
        policies: ['random', 'greedy'],
        maxRounds: 200,
        set: { 'enemies.drone.hp': 2, 'waveDecks.lab': [['drone', 'runner'], ['bloater']] },
        compare: true,
        workers: 3,
        out: 'x',
        site: 'https://home.example.org',
      },
    });
    expect(parseArgs(['report', '--compare'])).toEqual({ kind: 'error', message: '--compare compares the current rules with a variant: give the variant with --set PATH=VALUE' });
    expect(parseArgs(['report', '--workers', '0'])).toEqual({ kind: 'error', message: '--workers must be between 1 and 256, got 0' });
    expect(parseArgs(['report', '--site', 'https://x.org/path'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--site needs an address') });
    expect(parseArgs(['report', '--json'])).toEqual({ kind: 'error', message: 'Unknown option --json' });
    expect(parseArgs(['--seed', '7', '--game', '17', '--set', 'survivor.hp=9'])).toMatchObject({ kind: 'run', args: { seed: '7', game: 17, set: { 'survivor.hp': 9 } } });
    expect(parseArgs(['--game', '3', '--games', '5'])).toEqual({ kind: 'error', message: '--game plays one game; it cannot be combined with --games' });
  });

  it('asks for help', () => {
    expect(parseArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseArgs(['--games', '3', '-h'])).toEqual({ kind: 'help' });
  });

  it.each([
    [['--policy', 'smart'], 'Unknown policy "smart" (choose random or greedy)'],
    [['--games', 'ten'], '--games needs a whole number, got "ten"'],
    [['--games', '0'], '--games must be between 1 and 10000000, got 0'],
    [['--games', '1.5'], '--games needs a whole number, got "1.5"'],
    [['--fast'], 'Unknown option --fast'],
    [['extra'], 'Unexpected argument "extra"'],
    [['--seed'], '--seed needs a value'],
    [['--replay', '--json'], '--replay needs a value'],
  ])('rejects %j', (argv, message) => {
    expect(parseArgs(argv)).toEqual({ kind: 'error', message });
  });
});

describe('progress bar', () => {
  function stream(isTTY: boolean): { isTTY: boolean; text: string; write(t: string): void } {
    return {
      isTTY,
      text: '',
      write(t: string) {
        this.text += t;
      },
    };
  }

  it('writes a plain line at every tenth of a long run when stderr is not a terminal', () => {
    const out = stream(false);
    let t = 0;
    const p = createProgress(out, 1000, { now: () => t });
    for (let i = 1; i <= 1000; i++) {
      t = i * 2;
      p.update(i, 1000);
    }
    p.finish();
    const lines = out.text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('100/1000 games, 500/s, 2 s left');
    expect(lines[9]).toBe('1000/1000 games, 500/s, 0 s left');
    expect(out.text).not.toContain('\r');
  });

  it('stays quiet for a short run that is not on a terminal', () => {
    const out = stream(false);
    const p = createProgress(out, 50, { now: () => 0 });
    for (let i = 1; i <= 50; i++) p.update(i, 50);
    expect(out.text).toBe('');
  });

  it('draws for many games on a terminal and erases itself', () => {
    const out = stream(true);
    let t = 0;
    const p = createProgress(out, 1000, { now: () => t });
    t = 500;
    p.update(500, 1000);
    expect(out.text).toContain('500/1000 games');
    p.finish();
    expect(out.text.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('waits a second before drawing a short run', () => {
    const out = stream(true);
    let t = 0;
    const p = createProgress(out, 50, { now: () => t });
    t = 200;
    p.update(10, 50);
    expect(out.text).toBe('');
    t = 1500;
    p.update(40, 50);
    expect(out.text).toContain('40/50 games');
  });
});
