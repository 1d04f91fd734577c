import { describe, expect, it } from 'vitest';
import { dailySeed, replay } from '@site/game-engine';
import { gameSeed, playGame, runSimulation } from './simulate.ts';
import { formatSummary, formatSummaryJson } from './format.ts';

describe('runSimulation', () => {
  it('gives the same summary and hash for the same options', () => {
    const a = runSimulation({ seed: '7', games: 12, policy: 'greedy' }).summary;
    const b = runSimulation({ seed: '7', games: 12, policy: 'greedy' }).summary;
    expect(b).toEqual(a);
    expect(formatSummary(b)).toBe(formatSummary(a));
    expect(formatSummaryJson(b)).toBe(formatSummaryJson(a));
    expect(a.finalHash).toMatch(/^[0-9a-f]{8}$/);
  });

  it('changes with the seed and the policy', () => {
    const base = runSimulation({ seed: '7', games: 5, policy: 'random' }).summary;
    expect(runSimulation({ seed: '8', games: 5, policy: 'random' }).summary.finalHash).not.toBe(base.finalHash);
    expect(runSimulation({ seed: '7', games: 5, policy: 'greedy' }).summary.finalHash).not.toBe(base.finalHash);
  });

  it('plays every game of a daily run on the day\'s seed, only the policy\'s choices differ', () => {
    const seed = dailySeed('2026-11-24');
    const run = runSimulation({ seed, sameSeed: true, games: 4, policy: 'greedy', recordFirst: true });
    expect(run.summary.sameSeed).toBe(true);
    expect(run.summary.gameSeeds).toBe(`${seed} for every game; the policy's choices are seeded from ${seed}-<i>, i = 0..3`);
    expect(run.first?.seed).toBe(seed);
    // Game 0 is the day's game replayed from its own log: the same game anyone playing that day gets.
    expect(replay({ seed }, run.first?.actions ?? []).state).toEqual(run.first?.finalState);
    const second = playGame(seed, 'greedy', { policyKey: gameSeed(seed, 1) });
    expect(second.finalHash).not.toBe(run.first?.finalHash);
    expect(runSimulation({ seed, sameSeed: true, games: 4, policy: 'greedy' }).summary).toEqual(run.summary);
    expect(formatSummary(run.summary)).toContain(`seed              ${seed} (every game; the policy's choices differ)`);
  });

  it('adds up: outcomes, floors and rounds', () => {
    const s = runSimulation({ seed: 'sum', games: 15, policy: 'random' }).summary;
    expect(s.wins + s.losses + s.capped).toBe(15);
    expect(Object.values(s.levelsReached).reduce((n, c) => n + c, 0)).toBe(15);
    expect(Object.keys(s.levelsReached)).toEqual(['1', '2']);
    expect(s.rounds.min).toBeLessThanOrEqual(s.rounds.mean);
    expect(s.rounds.mean).toBeLessThanOrEqual(s.rounds.max);
    expect(s.winRate).toBe(Math.round((s.wins / 15) * 10000) / 100);
    expect(s.gameSeeds).toBe('sum-<i> for i = 0..14');
  });

  it('plays game i with the seed `${seed}-${i}`, so one game can be reproduced alone', () => {
    const progress: number[] = [];
    const run = runSimulation({ seed: 'r', games: 3, policy: 'greedy', recordFirst: true, onProgress: (done) => progress.push(done) });
    expect(progress).toEqual([1, 2, 3]);
    expect(gameSeed('r', 2)).toBe('r-2');
    const alone = playGame('r-0', 'greedy', { record: true });
    expect(run.first?.finalHash).toBe(alone.finalHash);
    expect(run.first?.actions).toEqual(alone.actions);
  });

  it('stops and reports capped games', () => {
    const s = runSimulation({ seed: 'cap', games: 4, policy: 'greedy', maxRounds: 2 }).summary;
    expect(s.capped).toBe(4);
    expect(s.rounds.max).toBe(3);
    expect(playGame('cap-0', 'random', { maxActions: 5 }).outcome).toBe('capped');
  });
});

describe('playGame', () => {
  it('counts every survivor death once, by the kind of enemy that killed it', () => {
    for (const seed of ['d-1', 'd-2', 'd-3', 'd-4']) {
      const game = playGame(seed, 'random', { record: true });
      const { events, state, rejected } = replay({ seed }, game.actions ?? []);
      expect(rejected).toEqual([]);
      expect(state).toEqual(game.finalState);
      const survivorDeaths = events.filter((e) => e.type === 'died' && e.actorId.startsWith('s')).length;
      const counted = game.deaths.drone + game.deaths.runner + game.deaths.bloater;
      expect(counted).toBe(survivorDeaths);
      if (game.outcome === 'lost') expect(counted).toBeGreaterThan(0);
    }
  });

  it('greedy games end by themselves', () => {
    for (let i = 0; i < 10; i++) expect(playGame(`end-${i}`, 'greedy').outcome).not.toBe('capped');
  });
});
