/**
 * npm run sim -- --seed 42 --games 1000 --policy random|greedy [--json] [--replay FILE]
 * A thin shell: argument parsing, simulation and formatting live in the modules next to this one.
 * stdout carries only the results (identical for identical arguments); timing and progress go to stderr.
 */
import fs from 'node:fs';
import { parseArgs, USAGE } from './args.ts';
import type { SimArgs } from './args.ts';
import { formatSummary, formatSummaryJson } from './format.ts';
import { createProgress } from './progress.ts';
import { checkReplayFile, formatReplayCheck, howToWatch, replayFileText, resolveReplayPath } from './replay-io.ts';
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
    recordFirst: replayPath !== null,
    onProgress: (done, total) => progress.update(done, total),
  });
  progress.finish();
  process.stdout.write(args.json ? formatSummaryJson(summary) : formatSummary(summary));
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(`elapsed ${seconds.toFixed(2)} s (${(args.games / Math.max(seconds, 0.001)).toFixed(0)} games/s)\n`);
  if (replayPath !== null && first) {
    fs.writeFileSync(replayPath, replayFileText(first), { flag: 'wx' });
    process.stderr.write(`replay of game 0 (seed ${first.seed}, ${first.outcome}, ${first.actionCount} actions) written to ${replayPath}\n`);
    process.stderr.write(howToWatch(replayPath, first));
  }
  return 0;
}

function main(argv: readonly string[]): number {
  const parsed = parseArgs(argv);
  if (parsed.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`sim: ${parsed.message}\n\n${USAGE}\n`);
    return 2;
  }
  const { args } = parsed;
  const replayPath = args.replay === null ? null : resolveReplayPath(args.replay);
  if (replayPath !== null && fs.existsSync(replayPath)) return verify(replayPath, args);
  return simulate(args, replayPath);
}

process.exitCode = main(process.argv.slice(2));
