import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@site/game-engine';
import { TIMING, buildTimeline, endPause, playbackSpeed } from './timeline.ts';

const enemies: GameEvent = { type: 'phase', phase: 'Enemies', round: 1 };
const survivors: GameEvent = { type: 'phase', phase: 'Survivors', round: 2 };
const spawn = (n: number): GameEvent => ({ type: 'spawned', enemyId: `e${n}`, kind: 'drone', x: 1, y: 8 });
const step = (x: number): GameEvent => ({ type: 'stepped', actorId: 'e1', fromX: x - 1, fromY: 8, x, y: 8 });
const hit: GameEvent = { type: 'attacked', attackerId: 'e1', targetId: 's1', weaponId: null, fromX: 2, fromY: 2, x: 2, y: 2, rolls: [1], damage: 1 };
const hurt: GameEvent = { type: 'damaged', actorId: 's1', amount: 1, hp: 4, x: 2, y: 2 };

describe('the enemy-phase timeline', () => {
  it('spreads a wave over about 2000 ms, then 75 ms per step and 300 ms per attack, then the end pause', () => {
    const events = [{ type: 'passed', survivorId: 's2' } as GameEvent, enemies, spawn(1), spawn(2), spawn(3), spawn(4), step(2), step(3), hit, hurt, survivors];
    const { steps, total } = buildTimeline(events, 5);
    const at = steps.map((s) => s.at);
    // The survivor's own action and the phase change show at once.
    expect(at.slice(0, 2)).toEqual([0, 0]);
    // Four spawns, 500 ms apart: the wave takes 2000 ms.
    expect(at.slice(2, 6)).toEqual([0, 500, 1000, 1500]);
    expect(at[6]).toBe(2000);
    expect(at[7]).toBe(2000 + TIMING.enemyStepMs);
    expect(at[8]).toBe(2000 + 2 * TIMING.enemyStepMs);
    // The damage shows with the attack that caused it.
    expect(at[9]).toBe(at[8]);
    const fighting = 2000 + 2 * 75 + 300;
    expect(at[10]).toBe(fighting + endPause(5));
    expect(total).toBe(fighting + endPause(5));
  });

  it('grows the end pause with the enemy count, within bounds', () => {
    expect(endPause(1)).toBeLessThan(endPause(10));
    expect(endPause(0)).toBe(TIMING.endPauseMinMs);
    expect(endPause(1000)).toBe(TIMING.endPauseMaxMs);
  });

  it('shows a survivor action at once, without locking the input', () => {
    const { steps, total } = buildTimeline([{ type: 'stepped', actorId: 's1', fromX: 2, fromY: 2, x: 3, y: 2 }], 3);
    expect(total).toBe(0);
    expect(steps[0]?.at).toBe(0);
  });

  it('plays faster by the speed factor, in the same order', () => {
    const events = [enemies, spawn(1), step(2), hit, survivors];
    const normal = buildTimeline(events, 2);
    const fast = buildTimeline(events, 2, 10);
    expect(fast.total).toBeCloseTo(normal.total / 10);
    expect(fast.steps.map((s) => s.event)).toEqual(normal.steps.map((s) => s.event));
  });

  it('reads the speed from ?speed= first, then localStorage', () => {
    const storage = { getItem: (key: string) => (key === 'tower-speed' ? '3' : null) };
    expect(playbackSpeed('?speed=20', storage)).toBe(20);
    expect(playbackSpeed('', storage)).toBe(3);
    expect(playbackSpeed('?speed=abc', null)).toBe(1);
    expect(playbackSpeed('?speed=-2', null)).toBe(1);
  });
});
