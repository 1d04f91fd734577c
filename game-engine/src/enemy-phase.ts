import { makeEnemy } from './catalogue.ts';
import { rollDice, sum } from './dice.ts';
import type { Draft } from './draft.ts';
import { DIRECTIONS, distanceField, gridOfState, hasLineOfSight, isPassable, UNREACHABLE } from './grid.ts';
import type { Grid } from './grid.ts';
import type { Enemy, Survivor } from './types.ts';

/** Extra score for stepping back onto the previous tile (lower score wins). */
const BACKTRACK_PENALTY = 3;
/** Bonus for a step that closes in on a survivor the enemy can see. */
const SIGHT_BONUS = 1;
/** Random jitter added to each candidate step, so equal paths are chosen at random and a slightly
 * longer path sometimes wins. Path length counts 2 per tile. */
const JITTER = 1.5;

/**
 * The enemy phase, run inside `apply` when no survivor has actions left: spawn one wave card,
 * refresh every enemy's actions, let each enemy act, then hand the turn back to the survivors.
 */
export function runEnemyPhase(d: Draft): void {
  const state = d.state;
  state.phase = 'Enemies';
  state.activeSurvivorId = null;
  d.emit({ type: 'phase', phase: 'Enemies', round: state.round });
  const grid = gridOfState(state);

  spawnWave(d, grid);

  const enemies = d.enemies();
  for (let i = 0; i < enemies.length; i++) {
    const e = enemies[i];
    if (e) enemies[i] = { ...e, actions: e.actionsMax };
  }

  let field = distanceField(grid, state.survivors);
  for (let i = 0; i < enemies.length; i++) {
    const enemy = enemies[i];
    if (!enemy) continue;
    while (enemy.actions > 0 && state.status === 'playing') {
      enemy.actions -= 1;
      const victims = state.survivors.filter((s) => s.x === enemy.x && s.y === enemy.y);
      if (victims.length > 0) {
        const died = enemyAttack(d, enemy, victims);
        if (died) field = distanceField(grid, state.survivors);
      } else {
        enemyMove(d, grid, enemy, field);
      }
    }
    if (state.status !== 'playing') return;
  }

  if (!state.survivors.some((s) => s.hp > 0)) {
    lose(d);
    return;
  }
  const survivors = d.survivors();
  for (let i = 0; i < survivors.length; i++) {
    const s = survivors[i];
    if (!s) continue;
    const actions = s.hp > 0 ? s.actionsMax : 0;
    survivors[i] = { ...s, actions, moveActions: 0, attackActions: 0 };
  }
  state.round += 1;
  state.phase = 'Survivors';
  d.emit({ type: 'phase', phase: 'Survivors', round: state.round });
  const first = survivors.find((s) => s.actions > 0) ?? null;
  state.activeSurvivorId = first ? first.id : null;
  if (first) d.emit({ type: 'selected', survivorId: first.id });
}

function spawnWave(d: Draft, grid: Grid): void {
  const state = d.state;
  const floor = state.levels[state.levelIndex];
  if (!floor || floor.waveDeck.length === 0 || grid.spawnCells.length === 0) return;
  let deck = state.deck.length > 0 ? state.deck.slice() : floor.waveDeck.map((_, i) => i);
  const pick = d.rng.int(deck.length);
  const card = floor.waveDeck[deck[pick] ?? 0] ?? [];
  deck = deck.filter((_, i) => i !== pick);
  state.deck = deck;
  const enemies = d.enemies();
  for (const kind of card) {
    const cell = grid.spawnCells[d.rng.int(grid.spawnCells.length)] ?? 0;
    const x = cell % grid.width;
    const y = (cell - x) / grid.width;
    const enemy = makeEnemy(kind, d.newId('e'), x, y, state.rules);
    enemies.push(enemy);
    d.emit({ type: 'spawned', enemyId: enemy.id, kind, x, y });
  }
}

/** Attacks one random survivor on the tile. Returns true when the victim died. */
function enemyAttack(d: Draft, enemy: Enemy, victims: Survivor[]): boolean {
  const target = victims[d.rng.int(victims.length)];
  if (!target) return false;
  const rolls = rollDice(d.rng, enemy.attackDice);
  let armor = 0;
  for (const item of target.inventory) if (item.kind === 'armor') armor += item.armor;
  const damage = Math.max(0, sum(rolls) - armor);
  d.emit({
    type: 'attacked',
    attackerId: enemy.id,
    targetId: target.id,
    weaponId: null,
    fromX: enemy.x,
    fromY: enemy.y,
    x: target.x,
    y: target.y,
    rolls,
    damage,
  });
  if (damage === 0) return false;
  const victim = d.survivor(target.id);
  victim.hp -= damage;
  d.emit({ type: 'damaged', actorId: victim.id, amount: damage, hp: victim.hp, x: victim.x, y: victim.y });
  // The spec removes survivors whose hp goes *below* 0; at exactly 0 they stay, but get no actions.
  if (victim.hp >= 0) return false;
  d.survivors().splice(
    d.state.survivors.findIndex((s) => s.id === victim.id),
    1,
  );
  d.emit({ type: 'died', actorId: victim.id, x: victim.x, y: victim.y });
  if (d.state.survivors.length === 0) lose(d);
  return true;
}

export function lose(d: Draft): void {
  d.state.status = 'lost';
  d.state.activeSurvivorId = null;
  d.emit({ type: 'lost', round: d.state.round });
}

/** Moves up to `enemy.move` tiles, stopping on a survivor's tile. */
function enemyMove(d: Draft, grid: Grid, enemy: Enemy, field: Int16Array): void {
  const survivors = d.state.survivors;
  for (let step = 0; step < enemy.move; step++) {
    let seen: Survivor | null = null;
    let seenDist = Infinity;
    for (const s of survivors) {
      const dist = Math.abs(s.x - enemy.x) + Math.abs(s.y - enemy.y);
      if (dist < seenDist && hasLineOfSight(grid, enemy.x, enemy.y, s.x, s.y)) {
        seen = s;
        seenDist = dist;
      }
    }
    let bestX = -1;
    let bestY = -1;
    let bestScore = Infinity;
    for (const dir of DIRECTIONS) {
      const x = enemy.x + dir.x;
      const y = enemy.y + dir.y;
      if (!isPassable(grid, x, y)) continue;
      const pathLength = field[y * grid.width + x] ?? UNREACHABLE;
      let score = pathLength === UNREACHABLE ? 1000 : pathLength * 2;
      if (x === enemy.prevX && y === enemy.prevY) score += BACKTRACK_PENALTY;
      if (seen && Math.abs(seen.x - x) + Math.abs(seen.y - y) < seenDist) score -= SIGHT_BONUS;
      score += d.rng.float() * JITTER;
      if (score < bestScore) {
        bestScore = score;
        bestX = x;
        bestY = y;
      }
    }
    if (bestX < 0) return;
    const fromX = enemy.x;
    const fromY = enemy.y;
    enemy.prevX = fromX;
    enemy.prevY = fromY;
    enemy.x = bestX;
    enemy.y = bestY;
    d.emit({ type: 'stepped', actorId: enemy.id, fromX, fromY, x: bestX, y: bestY });
    if (survivors.some((s) => s.x === bestX && s.y === bestY)) return;
  }
}
