/**
 * npm run sim -- --seed 42 --games 1000 --policy random|greedy [--json] [--replay FILE] [--set PATH=VALUE]
 * npm run sim -- --daily 2026-11-24 --games 1000 [--json] [--replay FILE]
 * npm run sim -- report --seed 42 --games 10000 [--policy P ...] [--set PATH=VALUE ... --compare] [--workers N] [--out DIR]
 * A thin shell: argument parsing, simulation and formatting live in the modules next to this one.
 * stdout carries only the results (identical for identical arguments); timing and progress go to stderr.
 */
import fs from 'node:fs';
import { parseArgs, USAGE } from './args.ts';
import type { SimArgs } from './args.ts';
import { dailySeed } from '@site/game-engine';
import { formatDaily, formatDailyJson, formatSummary, formatSummaryJson } from './format.ts';
import { POLICY_NAMES } from './policies.ts';
import { createProgress } from './progress.ts';
import { checkReplayFile, formatReplayCheck, howToWatch, replayFileText, resolveReplayPath } from './replay-io.ts';
import { rulesOfOverrides } from './games.ts';
import { Stopped } from './pool.ts';
import { runReport } from './report-cli.ts';
import { runSimulation } from './simulate.ts';

function verify(file: string, args: SimArgs): number {
  const check = checkReplayFile(file);
  process.stdout.write(args.json ? `${JSON.stringify({ file, ...check })}\n` : formatReplayCheck(file, check));
  return check.ok ? 0 : 1;
}

function simulate(args: SimArgs, replayPath: string | null): number {
  const started = performance.now();
  const progress = createProgress(process.stderr, args.games);
  const { summary, first } = runSimulation({
    seed: args.seed,
    games: args.games,
    policy: args.policy,
    maxRounds: args.maxRounds,
    rules: rulesOfOverrides(args.set),
    ...(args.game !== null ? { games: 1, firstGame: args.game } : {}),
    recordFirst: replayPath !== null,
    onProgress: (done, total) => progress.update(done, total),
  });
  progress.finish();
  process.stdout.write(args.json ? formatSummaryJson(summary) : formatSummary(summary));
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(`elapsed ${seconds.toFixed(2)} s (${(args.games / Math.max(seconds, 0.001)).toFixed(0)} games/s)\n`);
  if (replayPath !== null && first) {
    fs.writeFileSync(replayPath, replayFileText(first, args.set), { flag: 'wx' });
    process.stderr.write(`replay of game ${args.game ?? 0} (seed ${first.seed}, ${first.outcome}, ${first.actionCount} actions) written to ${replayPath}\n`);
    process.stderr.write(howToWatch(replayPath, first, args.set));
  }
  return 0;
}

/** The policy whose game on the day's seed `--daily DATE --replay FILE` writes. */
const DAILY_REPLAY_POLICY = 'greedy';

/**
 * The daily tower's difficulty: the day's seed played `games` times by each policy; with a replay
 * path, the greedy policy's game of that day is written there too (never over an existing file).
 */
function daily(date: string, args: SimArgs, replayPath: string | null): number {
  if (replayPath !== null && fs.existsSync(replayPath)) {
    process.stderr.write(`sim: ${replayPath} already exists; give a new file for the daily's replay (--replay FILE alone checks an existing one)\n`);
    return 2;
  }
  const started = performance.now();
  const results = POLICY_NAMES.map((policy) => {
    const progress = createProgress(process.stderr, args.games);
    const { summary, first } = runSimulation({
      seed: dailySeed(date),
      sameSeed: true,
      games: args.games,
      policy,
      maxRounds: args.maxRounds,
      recordFirst: replayPath !== null && policy === DAILY_REPLAY_POLICY,
      onProgress: (done, total) => progress.update(done, total),
    });
    progress.finish();
    return { policy, summary, first };
  });
  const summaries = results.map((r) => r.summary);
  const game = results.find((r) => r.policy === DAILY_REPLAY_POLICY)?.first ?? null;
  process.stdout.write(args.json ? formatDailyJson(date, summaries) : formatDaily(date, summaries));
  process.stderr.write(`elapsed ${((performance.now() - started) / 1000).toFixed(2)} s\n`);
  if (replayPath !== null && game) {
    fs.writeFileSync(replayPath, replayFileText(game), { flag: 'wx' });
    process.stderr.write(`replay of the daily tower ${date} played by ${DAILY_REPLAY_POLICY} (seed ${game.seed}, ${game.outcome}, ${game.actionCount} actions) written to ${replayPath}\n`);
    process.stderr.write(howToWatch(replayPath, game));
  }
  return 0;
}

/** Ctrl+C stops the workers, says how far the run got and writes nothing. */
async function report(args: Extract<ReturnType<typeof parseArgs>, { kind: 'report' }>['args']): Promise<number> {
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  process.once('SIGINT', onInterrupt);
  try {
    return await runReport(args, { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), signal: controller.signal });
  } catch (error) {
    if (!(error instanceof Stopped)) throw error;
    process.stderr.write(`\nsim: stopped by Ctrl+C after ${error.done} of ${error.total} games; no report written\n`);
    return 130;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseArgs(argv);
  if (parsed.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`sim: ${parsed.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.kind === 'report') return report(parsed.args);
  const { args } = parsed;
  const replayPath = args.replay === null ? null : resolveReplayPath(args.replay);
  if (args.daily !== null) return daily(args.daily, args, replayPath);
  if (replayPath !== null && fs.existsSync(replayPath)) return verify(replayPath, args);
  return simulate(args, replayPath);
}

process.exitCode = await main(process.argv.slice(2));
