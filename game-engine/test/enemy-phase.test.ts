import { describe, expect, it } from 'vitest';
import { apply, createGame } from '../src/index.ts';
import type { GameEvent, GameState, FloorDef } from '../src/index.ts';
import { addEnemy, arena, expectOk, fixedDie, othersPassed, patchSurvivor, survivor } from './helpers.ts';

const quiet: FloorDef = { ...arena, waveDeck: [], floorItems: [] };

function quietGame(): GameState {
  return createGame({ seed: 'enemies', floors: [quiet] });
}

/** Ends the survivor phase: everyone else has passed, the active survivor passes now. */
function endTurn(state: GameState): { state: GameState; events: GameEvent[] } {
  return expectOk(apply(othersPassed(state), { type: 'pass' }));
}

describe('enemy phase', () => {
  it('an enemy on a survivor tile attacks with the sum of its dice; hp below 0 removes the survivor', () => {
    let state = patchSurvivor(quietGame(), 1, { x: 6, y: 1 });
    state = addEnemy(state, 'drone', 2, 2, { attackDice: [fixedDie(1), fixedDie(2)] });
    const ada = survivor(state);
    const enemyId = state.enemies[0]!.id;
    const r = endTurn(state);
    const fight = r.events.filter((e) => ['attacked', 'damaged', 'died'].includes(e.type));
    expect(fight).toEqual([
      { type: 'attacked', attackerId: enemyId, targetId: ada.id, weaponId: null, fromX: 2, fromY: 2, x: 2, y: 2, rolls: [1, 2], damage: 3 },
      { type: 'damaged', actorId: ada.id, amount: 3, hp: 2, x: 2, y: 2 },
      { type: 'attacked', attackerId: enemyId, targetId: ada.id, weaponId: null, fromX: 2, fromY: 2, x: 2, y: 2, rolls: [1, 2], damage: 3 },
      { type: 'damaged', actorId: ada.id, amount: 3, hp: -1, x: 2, y: 2 },
      { type: 'died', actorId: ada.id, x: 2, y: 2 },
    ]);
    expect(r.state.survivors.map((s) => s.name)).toEqual(['Bram']);
    expect(r.state.activeSurvivorId).toBe(survivor(state, 1).id);
    expect(r.state.status).toBe('playing');
  });

  it('a survivor at exactly 0 hp stays but gets no actions; when nobody is above 0 the game is lost', () => {
    let state = patchSurvivor(quietGame(), 1, { x: 6, y: 1 });
    state = addEnemy(state, 'drone', 2, 2, { attackDice: [fixedDie(5)], actionsMax: 1 });
    const r = endTurn(state);
    expect(r.state.survivors.map((s) => [s.name, s.hp, s.actions])).toEqual([['Ada', 0, 0], ['Bram', 5, 3]]);
    expect(r.state.activeSurvivorId).toBe(survivor(state, 1).id);

    const alone = addEnemy(patchSurvivor(patchSurvivor(quietGame(), 1, { hp: 0 }), 0, {}), 'drone', 2, 2, {
      attackDice: [fixedDie(5)],
      actionsMax: 1,
    });
    const lost = endTurn(alone);
    expect(lost.state.status).toBe('lost');
    expect(lost.events.at(-1)).toEqual({ type: 'lost', round: 1 });
  });

  it('loses when the last survivor dies', () => {
    let state = patchSurvivor(quietGame(), 1, { x: 2, y: 2 });
    state = addEnemy(state, 'bloater', 2, 2, { attackDice: [fixedDie(9)] });
    const r = endTurn(state);
    expect(r.state.survivors).toEqual([]);
    expect(r.state.status).toBe('lost');
    expect(r.state.activeSurvivorId).toBeNull();
  });

  it('armour reduces the damage', () => {
    const vest = { id: 'i900', kind: 'armor' as const, type: 'vest', name: 'Vest', description: '', armor: 1, x: null, y: null };
    let state = patchSurvivor(patchSurvivor(quietGame(), 0, { inventory: [vest] }), 1, { x: 6, y: 1 });
    state = addEnemy(state, 'drone', 2, 2, { attackDice: [fixedDie(2)] });
    const r = endTurn(state);
    expect(survivor(r.state).hp).toBe(3);
  });

  it('moves up to its move value per action toward the survivors, tile by tile, and records prevX/prevY', () => {
    let state = patchSurvivor(patchSurvivor(quietGame(), 0, { x: 1, y: 5 }), 1, { x: 1, y: 5 });
    state = addEnemy(state, 'runner', 7, 1);
    const r = endTurn(state);
    const steps = r.events.filter((e) => e.type === 'stepped');
    expect(steps).toHaveLength(4);
    for (let i = 1; i < steps.length; i++) {
      const prev = steps[i - 1]!;
      const step = steps[i]!;
      if (prev.type !== 'stepped' || step.type !== 'stepped') throw new Error('type');
      expect([step.fromX, step.fromY]).toEqual([prev.x, prev.y]);
      expect(Math.abs(step.x - step.fromX) + Math.abs(step.y - step.fromY)).toBe(1);
    }
    const runner = r.state.enemies[0]!;
    const last = steps.at(-1)!;
    if (last.type !== 'stepped') throw new Error('type');
    expect([runner.x, runner.y, runner.prevX, runner.prevY]).toEqual([last.x, last.y, last.fromX, last.fromY]);
    // 10 tiles away by path, so after 4 steps it is 6 away
    expect(Math.abs(runner.x - 1) + Math.abs(runner.y - 5)).toBe(6);
  });

  it('stops on a survivor tile and attacks with its next action', () => {
    let state = patchSurvivor(quietGame(), 1, { x: 2, y: 2 });
    state = addEnemy(state, 'drone', 3, 2, { attackDice: [fixedDie(1)] });
    const r = endTurn(state);
    expect(r.events.filter((e) => e.type === 'stepped' || e.type === 'attacked').map((e) => e.type)).toEqual(['stepped', 'attacked']);
  });

  it('spawns one card of the deck on spawn-colour tiles and reshuffles the deck when empty', () => {
    const level: FloorDef = { ...quiet, waveDeck: [['drone'], ['runner', 'runner']] };
    let state = createGame({ seed: 'waves', floors: [level] });
    state = patchSurvivor(patchSurvivor(state, 0, { x: 7, y: 5 }), 1, { x: 7, y: 5 });
    const spawned: string[] = [];
    const decks: number[][] = [];
    for (let round = 0; round < 4; round++) {
      const r = endTurn(state);
      state = r.state;
      decks.push(state.deck);
      for (const e of r.events) {
        if (e.type === 'spawned') {
          spawned.push(e.kind);
          expect([e.x, e.y]).toEqual([1, 1]);
        }
      }
    }
    expect(decks.map((d) => d.length)).toEqual([1, 0, 1, 0]);
    expect(spawned.filter((k) => k === 'drone')).toHaveLength(2);
    expect(spawned.filter((k) => k === 'runner')).toHaveLength(4);
    expect(state.round).toBe(5);
  });

  it('regains full actions every enemy phase and is deterministic', () => {
    let state = patchSurvivor(quietGame(), 1, { x: 7, y: 5 });
    state = addEnemy(state, 'drone', 7, 1, { actions: 0 });
    const a = endTurn(state);
    const b = endTurn(JSON.parse(JSON.stringify(state)) as GameState);
    expect(a.events.filter((e) => e.type === 'stepped')).toHaveLength(2);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});
