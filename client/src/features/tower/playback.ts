import type { GameEvent, GameState } from '@site/game-engine';
import { applyEvent } from './scene.ts';
import { settle, type SceneStore } from './scene-store.ts';
import type { Timeline, TimelineStep } from './timeline.ts';

/**
 * Plays one result's timeline on the scene: one timer per distinct moment (events at the same moment
 * are shown together), then the scene settles on the final state. Returns the timers, to clear them.
 */
export function schedulePlayback(
  store: SceneStore,
  timeline: Timeline,
  final: GameState,
  onMoment: (events: GameEvent[]) => void,
  onEnd: () => void,
): number[] {
  const moments = new Map<number, TimelineStep[]>();
  for (const step of timeline.steps) moments.set(step.at, [...(moments.get(step.at) ?? []), step]);
  const timers: number[] = [];
  for (const [at, steps] of moments) {
    timers.push(
      window.setTimeout(() => {
        let scene = store.get();
        const now = performance.now();
        for (const step of steps) scene = applyEvent(scene, step.event, now, step.duration, final);
        store.set(scene);
        onMoment(steps.map((step) => step.event));
      }, at),
    );
  }
  timers.push(
    window.setTimeout(() => {
      store.set(settle(store.get(), final));
      onEnd();
    }, timeline.total),
  );
  return timers;
}
