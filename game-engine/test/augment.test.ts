import { describe, expect, it } from 'vitest';
import { apply, weaponsOf } from '../src/index.ts';
import { addEnemy, arenaGame, expectOk, expectRejected, fixedDie, patchSurvivor, survivor } from './helpers.ts';

describe('augment', () => {
  it('installs ocular lasers for 5 XP, no action; they attack at range 1 for 1 quick attack', () => {
    let state = patchSurvivor(arenaGame(), 0, { xp: 6 });
    const r = expectOk(apply(state, { type: 'augment', augmentId: 'ocularLasers' }));
    const s = survivor(r.state);
    expect(s.xp).toBe(1);
    expect(s.actions).toBe(3);
    expect(s.augments[0]).toMatchObject({ id: 'ocularLasers', installed: true, cost: 5 });
    const lasers = weaponsOf(s).find((w) => w.type === 'ocularLasers')!;
    expect(lasers).toMatchObject({ attackCost: 1, range: 1, ammo: null });
    state = addEnemy(r.state, 'drone', 3, 3, { dodgeDie: fixedDie(0) });
    state = patchSurvivor(state, 0, { unarmed: s.unarmed.map((w) => (w.id === lasers.id ? { ...w, damageDice: [fixedDie(1)] } : w)) });
    const shot = expectOk(apply(state, { type: 'attack', weaponId: lasers.id, x: 3, y: 3 }));
    expect(shot.state.enemies).toEqual([]);
    expect(survivor(shot.state)).toMatchObject({ actions: 2, attackActions: 1, xp: 3 });
    expectRejected(apply(r.state, { type: 'augment', augmentId: 'ocularLasers' }), 'already_installed');
  });

  it('needs enough XP and a known augment', () => {
    const state = patchSurvivor(arenaGame(), 0, { xp: 4 });
    expectRejected(apply(state, { type: 'augment', augmentId: 'ocularLasers' }), 'not_enough_xp');
    expectRejected(apply(state, { type: 'augment', augmentId: 'wings' }), 'unknown_augment');
  });
});
