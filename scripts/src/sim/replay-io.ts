/**
 * Replay files on disk: the engine's ReplayFile format (toReplayFile / verifyReplayFile), the same
 * one the game page exports, so a downloaded replay can be checked with `npm run sim -- --replay FILE`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TOWER_REPLAY_PAGE } from '@site/contracts/tower';
import { replayFragment, toReplayFile, verifyReplayFile } from '@site/game-engine';
import type { ReplayFile, RuleOverrides } from '@site/game-engine';
import type { GameRecord } from './simulate.ts';

/**
 * `npm run sim` runs inside the scripts/ workspace, so a relative FILE is resolved against the
 * directory npm was started from (INIT_CWD), which is where the tester typed the command.
 */
export function resolveReplayPath(file: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  return path.resolve(env.INIT_CWD ?? cwd, file);
}

/** The replay file of a recorded game; `rules`: the variant it was played with (--set). */
export function replayFileOf(game: GameRecord, rules: RuleOverrides = {}): ReplayFile {
  if (!game.actions) throw new Error(`Game ${game.seed} was played without recording its actions`);
  return toReplayFile(game.seed, game.actions, game.finalState, undefined, rules);
}

/** Pretty JSON with one action per line, so a replay stays readable and diffable. */
export function replayFileText(game: GameRecord, rules: RuleOverrides = {}): string {
  const file = replayFileOf(game, rules);
  const placeholder = '\u0000actions\u0000';
  const actions = file.actions.map((a) => `    ${JSON.stringify(a)}`).join(',\n');
  const text = JSON.stringify({ ...file, actions: placeholder }, null, 2);
  return `${text.replace(JSON.stringify(placeholder), actions ? `[\n${actions}\n  ]` : '[]')}\n`;
}

export type ReplayCheck =
  | { ok: true; seed: string; actions: number; status: string; round: number; finalHash: string }
  | { ok: false; message: string };

/** Parses and verifies the text of a replay file: replays the log and compares the final hash. */
export function checkReplayText(text: string): ReplayCheck {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `The file is not JSON: ${(error as Error).message}` };
  }
  const verdict = verifyReplayFile(json);
  if (!verdict.ok) return { ok: false, message: verdict.message };
  return {
    ok: true,
    seed: verdict.file.seed,
    actions: verdict.file.actions.length,
    status: verdict.state.status,
    round: verdict.state.round,
    finalHash: verdict.file.finalHash,
  };
}

export function checkReplayFile(file: string): ReplayCheck {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return { ok: false, message: `Cannot read ${file}: ${(error as Error).message}` };
  }
  return checkReplayText(text);
}

export function formatReplayCheck(file: string, check: ReplayCheck): string {
  if (!check.ok) return `FAILED ${file}\n  ${check.message}\n`;
  const ending = check.status === 'playing' ? `still playing in round ${check.round}` : `${check.status} in round ${check.round}`;
  return `OK ${file}\n  seed ${check.seed}, ${check.actions} actions, ${ending}\n  final hash ${check.finalHash}\n`;
}

/** Links longer than this are left out of the CLI's hint (the file picker takes any size). */
const MAX_PRINTED_LINK = 4000;

/** How to watch a written replay in the browser: the replay page's file picker, and a link when it is short enough. */
export function howToWatch(file: string, game: GameRecord, rules: RuleOverrides = {}): string {
  const lines = [`open it at ${TOWER_REPLAY_PAGE} on the site and choose ${file}`];
  const link = `${TOWER_REPLAY_PAGE}${replayFragment(replayFileOf(game, rules))}`;
  if (link.length <= MAX_PRINTED_LINK) lines.push(`or open the link ${link}`);
  return `${lines.join('\n')}\n`;
}
