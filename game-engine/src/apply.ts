import { attack } from './actions/attack.ts';
import { augment } from './actions/augment.ts';
import { drop } from './actions/drop.ts';
import { interact } from './actions/interact.ts';
import { look } from './actions/look.ts';
import { move } from './actions/move.ts';
import { pass } from './actions/pass.ts';
import { pick } from './actions/pick.ts';
import { reload } from './actions/reload.ts';
import { cycle, select } from './actions/select.ts';
import { MESSAGES, reject } from './messages.ts';
import { activeSurvivorOf } from './turn.ts';
import type { Action, ActionType, ApplyResult, GameState, Survivor } from './types.ts';

type Field = 'int' | 'string' | 'string?' | 'direction';

/** Required fields per action type; `survivorId` is optional on every survivor action. */
const SHAPES: Record<ActionType, Record<string, Field>> = {
  move: { x: 'int', y: 'int' },
  attack: { weaponId: 'string', x: 'int', y: 'int', targetId: 'string?' },
  reload: { itemId: 'string' },
  drop: { itemId: 'string' },
  pick: { itemId: 'string' },
  look: { x: 'int', y: 'int' },
  interact: { targetId: 'string', name: 'string?', weaponId: 'string?' },
  augment: { augmentId: 'string' },
  pass: {},
  select: { survivorId: 'string' },
  cycle: { direction: 'direction' },
};

const SHAPE_ENTRIES = new Map(Object.entries(SHAPES).map(([type, shape]) => [type, Object.entries(shape)]));

function fieldOk(value: unknown, field: Field): boolean {
  switch (field) {
    case 'int':
      return Number.isInteger(value);
    case 'string':
      return typeof value === 'string';
    case 'string?':
      return value === undefined || typeof value === 'string';
    case 'direction':
      return value === 1 || value === -1;
  }
}

/** Returns a reason when the value is not a well-formed Action, else null. */
export function malformedReason(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'An action must be an object with a type';
  const record = raw as Record<string, unknown>;
  const type = record.type;
  const fields = typeof type === 'string' ? SHAPE_ENTRIES.get(type) : undefined;
  if (!fields) return `Unknown action type ${JSON.stringify(type) ?? String(type)}`;
  for (const [key, field] of fields) {
    if (!fieldOk(record[key], field)) return `Action ${type} needs a valid ${key}`;
  }
  if (type !== 'select' && record.survivorId !== undefined && typeof record.survivorId !== 'string') {
    return `Action ${type} has an invalid survivorId`;
  }
  return null;
}

/**
 * The game reducer. Never throws for a bad action: it answers `{ ok: false, code, message }`.
 * Checks run in a fixed order: shape, game over, phase, active survivor, then the action's own rules.
 * The input state is never modified; unchanged parts are shared with the returned state.
 */
export function apply(state: GameState, action: Action | unknown): ApplyResult {
  const malformed = malformedReason(action);
  if (malformed !== null) return reject('malformed_action', malformed);
  const a = action as Action;
  if (state.status !== 'playing') return reject('game_over', MESSAGES.gameOver);
  if (state.phase !== 'Survivors') return reject('wrong_phase', MESSAGES.wrongPhase);
  if (a.type === 'select') return select(state, a);
  if (a.type === 'cycle') return cycle(state, a);
  const active = activeSurvivorOf(state);
  if (!active) return reject('no_active_survivor', MESSAGES.noActiveSurvivor);
  if (a.survivorId !== undefined && a.survivorId !== active.id) {
    return reject('not_active_survivor', MESSAGES.notActiveSurvivor);
  }
  return run(state, a, active);
}

function run(state: GameState, a: Exclude<Action, { type: 'select' | 'cycle' }>, s: Survivor): ApplyResult {
  switch (a.type) {
    case 'move':
      return move(state, a, s);
    case 'attack':
      return attack(state, a, s);
    case 'reload':
      return reload(state, a, s);
    case 'drop':
      return drop(state, a, s);
    case 'pick':
      return pick(state, a, s);
    case 'look':
      return look(state, a, s);
    case 'interact':
      return interact(state, a, s);
    case 'augment':
      return augment(state, a, s);
    case 'pass':
      return pass(state, a, s);
  }
}
