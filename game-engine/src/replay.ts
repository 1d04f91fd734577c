import { apply } from './apply.ts';
import { createGame } from './create.ts';
import type { GameOptions } from './create.ts';
import type { Action, GameEvent, GameState, RejectionCode } from './types.ts';

export interface ReplayResult {
  state: GameState;
  /** All events of the accepted actions, in order. */
  events: GameEvent[];
  /** Actions that were rejected (and skipped), by index in the log. */
  rejected: { index: number; code: RejectionCode; message: string }[];
}

/** Creates a game and applies the action log. Same options + log => identical state, everywhere. */
export function replay(options: GameOptions | GameState, actions: readonly (Action | unknown)[]): ReplayResult {
  let state = 'seed' in options && 'rng' in options ? options : createGame(options);
  const events: GameEvent[] = [];
  const rejected: ReplayResult['rejected'] = [];
  actions.forEach((action, index) => {
    const result = apply(state, action);
    if (result.ok) {
      state = result.state;
      for (const e of result.events) events.push(e);
    } else {
      rejected.push({ index, code: result.code, message: result.message });
    }
  });
  return { state, events, rejected };
}

/** JSON with object keys sorted, so equal states serialise identically whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
}

/** Stable 32-bit FNV-1a hash (8 hex digits) of the canonical JSON of a state (or any JSON value). */
export function hashState(state: unknown): string {
  const text = canonicalJson(state);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
