import { hashState, replay } from './replay.ts';
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
): ReplayFile {
  return {
    format: 'tower-replay',
    version: 1,
    seed: String(seed),
    ...(survivorNames ? { survivorNames: [...survivorNames] } : {}),
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
  const options = { seed: file.seed, ...(file.survivorNames ? { survivorNames: file.survivorNames } : {}) };
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
  return null;
}
