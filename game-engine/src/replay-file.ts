import type { GameOptions } from './create.ts';
import { hashState, replay } from './replay.ts';
import { rulesWith } from './rules.ts';
import type { RuleOverrides } from './rules.ts';
import type { GameState } from './types.ts';

/**
 * The one replay file format, written by the browser page's export and by `npm run sim -- --replay`,
 * and verified by both: a seed, the accepted actions in order, and the hash of the final state.
 */
export interface ReplayFile {
  format: 'tower-replay';
  version: 1;
  seed: string;
  survivorNames?: string[];
  /** A game of a rules variant: the changed constants (path -> value); absent for the normal game. */
  rules?: RuleOverrides;
  actions: unknown[];
  finalHash: string;
  status: GameState['status'];
  round: number;
}

export function toReplayFile(
  seed: number | string,
  actions: readonly unknown[],
  finalState: GameState,
  survivorNames?: readonly string[],
  rules?: RuleOverrides,
): ReplayFile {
  return {
    format: 'tower-replay',
    version: 1,
    seed: String(seed),
    ...(survivorNames ? { survivorNames: [...survivorNames] } : {}),
    ...(rules && Object.keys(rules).length > 0 ? { rules: { ...rules } } : {}),
    actions: [...actions],
    finalHash: hashState(finalState),
    status: finalState.status,
    round: finalState.round,
  };
}

export type ReplayVerdict =
  | { ok: true; state: GameState; file: ReplayFile }
  | { ok: false; message: string; state?: GameState };

/** Parses untrusted JSON as a replay file, replays it and checks that it ends in the recorded state. */
export function verifyReplayFile(json: unknown): ReplayVerdict {
  const problem = replayFileProblem(json);
  if (problem) return { ok: false, message: problem };
  const file = json as ReplayFile;
  const options = replayGameOptions(file);
  if ('error' in options) return { ok: false, message: options.error };
  const { state, rejected } = replay(options, file.actions);
  const first = rejected[0];
  if (first) {
    return { ok: false, state, message: `Action ${first.index} was rejected on replay: ${first.message}` };
  }
  const hash = hashState(state);
  if (hash !== file.finalHash) {
    return { ok: false, state, message: `Final state hash ${hash} differs from the recorded ${file.finalHash}` };
  }
  return { ok: true, state, file };
}

/** The game options of a replay (file or link): its seed, survivor names and rules variant, checked. */
export function replayGameOptions(game: { seed: string; survivorNames?: readonly string[]; rules?: RuleOverrides }): GameOptions | { error: string } {
  const variant = rulesWith(game.rules ?? {});
  if (!variant.ok) return { error: `The replay's rules are not valid: ${variant.message}` };
  return {
    seed: game.seed,
    ...(game.survivorNames ? { survivorNames: game.survivorNames } : {}),
    ...(game.rules ? { rules: variant.rules } : {}),
  };
}

function replayFileProblem(json: unknown): string | null {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return 'A replay file is a JSON object';
  const file = json as Record<string, unknown>;
  if (file.format !== 'tower-replay') return 'Not a tower replay file (format must be "tower-replay")';
  if (file.version !== 1) return `Unsupported replay version ${String(file.version)}`;
  if (typeof file.seed !== 'string' || file.seed === '') return 'The replay has no seed';
  if (!Array.isArray(file.actions)) return 'The replay has no action list';
  if (typeof file.finalHash !== 'string') return 'The replay has no final hash';
  const names = file.survivorNames;
  if (names !== undefined && !(Array.isArray(names) && names.every((n) => typeof n === 'string'))) {
    return 'survivorNames must be a list of names';
  }
  const rules = file.rules;
  if (rules !== undefined && (rules === null || typeof rules !== 'object' || Array.isArray(rules))) return 'rules must be an object of changes';
  return null;
}
