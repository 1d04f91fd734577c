import type { GameEvent } from '@site/game-engine';

/** The spec's playback timings (section 9); the engine only reports what happened, the page paces it. */
export const TIMING = {
  /** All spawns of a wave together take about this long. */
  spawnSpreadMs: 2000,
  /** One tile of an enemy's walk. */
  enemyStepMs: 75,
  /** One enemy attack (the hit and its damage). */
  enemyAttackMs: 300,
  /** The pause at the end of the enemy phase grows with the number of enemies on the board. */
  endPausePerEnemyMs: 60,
  endPauseMinMs: 250,
  endPauseMaxMs: 1500,
} as const;

export type TimelineStep = { at: number; event: GameEvent; duration: number };
export type Timeline = { steps: TimelineStep[]; total: number };

/** The end-of-enemy-phase pause for this many enemies, before the survivors get the board back. */
export function endPause(enemyCount: number): number {
  return Math.min(TIMING.endPauseMaxMs, Math.max(TIMING.endPauseMinMs, enemyCount * TIMING.endPausePerEnemyMs));
}

/**
 * When each event of one `apply` result is shown, in ms from the start of the playback. Survivor
 * actions show at once; the enemy phase (from its 'phase: Enemies' event to 'phase: Survivors') is
 * paced: the wave's spawns spread evenly over ~2000 ms, 75 ms per enemy step, 300 ms per enemy attack
 * (its damage and deaths appear with it), then a pause scaled by the enemy count.
 * `speed` > 1 plays faster (tests); the order never changes.
 */
export function buildTimeline(events: readonly GameEvent[], enemyCountAtEnd: number, speed = 1): Timeline {
  const scale = speed > 0 ? 1 / speed : 1;
  const steps: TimelineStep[] = [];
  let t = 0;
  let inEnemyPhase = false;
  const spawnCount = countSpawnsByPhase(events);
  let phaseIndex = -1;
  let spawnInterval = 0;
  // Damage and deaths share the moment of the attack that caused them.
  let attackAt: number | null = null;
  for (const event of events) {
    if (event.type === 'phase' && event.phase === 'Enemies') {
      inEnemyPhase = true;
      phaseIndex += 1;
      const spawns = spawnCount[phaseIndex] ?? 0;
      spawnInterval = spawns > 0 ? TIMING.spawnSpreadMs / spawns : 0;
      steps.push({ at: t, event, duration: 0 });
      continue;
    }
    if (event.type === 'phase' && event.phase === 'Survivors' && inEnemyPhase) {
      inEnemyPhase = false;
      t += endPause(enemyCountAtEnd) * scale;
      steps.push({ at: t, event, duration: 0 });
      continue;
    }
    if (!inEnemyPhase) {
      steps.push({ at: t, event, duration: 0 });
      continue;
    }
    switch (event.type) {
      case 'spawned': {
        const d = spawnInterval * scale;
        steps.push({ at: t, event, duration: d });
        t += d;
        attackAt = null;
        break;
      }
      case 'stepped': {
        const d = TIMING.enemyStepMs * scale;
        steps.push({ at: t, event, duration: d });
        t += d;
        attackAt = null;
        break;
      }
      case 'attacked': {
        const d = TIMING.enemyAttackMs * scale;
        attackAt = t;
        steps.push({ at: t, event, duration: d });
        t += d;
        break;
      }
      default: {
        // Damage, deaths, a loss: shown with the attack that caused them, which already took its time.
        steps.push({ at: attackAt ?? t, event, duration: 0 });
      }
    }
  }
  // A lost game ends inside the enemy phase; it still gets its closing pause.
  if (inEnemyPhase) t += endPause(enemyCountAtEnd) * scale;
  return { steps, total: t };
}

function countSpawnsByPhase(events: readonly GameEvent[]): number[] {
  const counts: number[] = [];
  for (const event of events) {
    if (event.type === 'phase' && event.phase === 'Enemies') counts.push(0);
    else if (event.type === 'spawned' && counts.length > 0) counts[counts.length - 1] = (counts[counts.length - 1] ?? 0) + 1;
  }
  return counts;
}

/** Playback speed for tests and impatient players: `?speed=4` in the address, else localStorage 'tower-speed', else 1. */
export function playbackSpeed(search: string, storage: Pick<Storage, 'getItem'> | null): number {
  const fromUrl = Number(new URLSearchParams(search).get('speed'));
  if (Number.isFinite(fromUrl) && fromUrl > 0) return Math.min(fromUrl, 1000);
  const stored = Number(storage?.getItem('tower-speed'));
  if (Number.isFinite(stored) && stored > 0) return Math.min(stored, 1000);
  return 1;
}
