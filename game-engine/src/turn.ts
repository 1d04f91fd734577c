import type { Draft } from './draft.ts';
import { runEnemyPhase } from './enemy-phase.ts';
import type { GameState, Survivor } from './types.ts';

/** A survivor still has something to spend: whole actions, leftover moves or leftover quick attacks. */
export function hasActionsLeft(s: Survivor): boolean {
  return s.actions > 0 || s.moveActions > 0 || s.attackActions > 0;
}

export function activeSurvivorOf(state: GameState): Survivor | null {
  if (state.activeSurvivorId === null) return null;
  return state.survivors.find((s) => s.id === state.activeSurvivorId) ?? null;
}

/** Next survivor with actions after position `from` (wrapping, `from` itself last). */
export function nextWithActions(survivors: readonly Survivor[], from: number, direction: 1 | -1 = 1): Survivor | null {
  const n = survivors.length;
  for (let k = 1; k <= n; k++) {
    const s = survivors[(((from + direction * k) % n) + n) % n];
    if (s && hasActionsLeft(s)) return s;
  }
  return null;
}

/** Move points: leftover moves first, then whole actions converted at movesPerAction each. */
export function canSpendMoves(s: Survivor, cost: number): boolean {
  if (s.moveActions >= cost) return true;
  return s.actions * s.movesPerAction + s.moveActions >= cost;
}

export function spendMoves(s: Survivor, cost: number): void {
  if (s.moveActions < cost) {
    const converted = Math.ceil((cost - s.moveActions) / s.movesPerAction);
    s.actions -= converted;
    s.moveActions += converted * s.movesPerAction;
  }
  s.moveActions -= cost;
}

/** Quick attacks: leftover quick attacks first, then whole actions converted at attacksPerAction each. */
export function canSpendAttacks(s: Survivor, cost: number): boolean {
  if (s.attackActions >= cost) return true;
  return s.actions * s.attacksPerAction + s.attackActions >= cost;
}

export function spendAttacks(s: Survivor, cost: number): void {
  if (s.attackActions < cost) {
    const converted = Math.ceil((cost - s.attackActions) / s.attacksPerAction);
    s.actions -= converted;
    s.attackActions += converted * s.attacksPerAction;
  }
  s.attackActions -= cost;
}

/**
 * After a survivor's action: a survivor with nothing left passes automatically, the next survivor
 * with actions is selected, and when nobody has actions the enemy phase runs.
 */
export function settleTurn(d: Draft): void {
  if (d.state.status !== 'playing') return;
  const survivors = d.state.survivors;
  const index = survivors.findIndex((s) => s.id === d.state.activeSurvivorId);
  const active = survivors[index];
  if (active && hasActionsLeft(active)) return;
  const next = nextWithActions(survivors, index < 0 ? -1 : index);
  if (next) {
    d.state.activeSurvivorId = next.id;
    d.emit({ type: 'selected', survivorId: next.id });
    return;
  }
  runEnemyPhase(d);
}
