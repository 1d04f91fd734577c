/** Text for stdout. Everything here depends only on the summary, so identical runs print identical bytes. */
import { ENEMY_KINDS } from './simulate.ts';
import type { SimulationSummary } from './simulate.ts';

const BAR_WIDTH = 30;

function percent(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)} %` : '0.0 %';
}

function row(label: string, value: string): string {
  return `${label.padEnd(18)}${value}`;
}

export function formatSummary(s: SimulationSummary): string {
  const deathsTotal = ENEMY_KINDS.reduce((n, kind) => n + s.deathsByEnemy[kind], 0);
  const mostGames = Math.max(1, ...Object.values(s.levelsReached));
  const lines = [
    row('seed', s.sameSeed ? `${s.seed} (every game; the policy's choices differ)` : `${s.seed} (game i uses the seed "${s.seed}-i", i = 0..${Math.max(0, s.games - 1)})`),
    row('games', String(s.games)),
    row('policy', s.policy),
    row('win rate', `${s.winRate.toFixed(2)} % (${s.wins} won, ${s.losses} lost, ${s.capped} capped)`),
    row('rounds per game', `mean ${s.rounds.mean.toFixed(2)}, min ${s.rounds.min}, max ${s.rounds.max}`),
    row('actions', `${s.actions.total} (mean ${s.actions.meanPerGame.toFixed(2)} per game)`),
    row('deaths by enemy', `${ENEMY_KINDS.map((kind) => `${kind} ${s.deathsByEnemy[kind]}`).join(', ')} (${deathsTotal} survivors killed)`),
    'levels reached',
    ...Object.entries(s.levelsReached).map(([floor, count]) => {
      const bar = '#'.repeat(Math.round((count / mostGames) * BAR_WIDTH));
      return `  floor ${floor.padEnd(10)}${String(count).padStart(7)}  ${percent(count, s.games).padStart(7)}  ${bar}`.trimEnd();
    }),
    row('capped games', `${s.capped} (still playing after ${s.maxRounds} rounds)`),
    row('final-state hash', s.finalHash),
  ];
  return `${lines.join('\n')}\n`;
}

export function formatSummaryJson(s: SimulationSummary): string {
  return `${JSON.stringify(s)}\n`;
}

/** The daily tower's difficulty: each policy's summary, then their win rates side by side. */
export function formatDaily(date: string, summaries: readonly SimulationSummary[]): string {
  const head = `daily tower ${date}: every game on the seed ${summaries[0]?.seed ?? ''}\n\n`;
  const body = summaries.map((s) => formatSummary(s)).join('\n');
  const rates = summaries.map((s) => row(`  ${s.policy}`, `${s.winRate.toFixed(2)} % won, mean ${s.rounds.mean.toFixed(2)} rounds`));
  return `${head}${body}\nwin rate by policy\n${rates.join('\n')}\n`;
}

export function formatDailyJson(date: string, summaries: readonly SimulationSummary[]): string {
  return `${JSON.stringify({ date, seed: summaries[0]?.seed, policies: summaries })}\n`;
}
