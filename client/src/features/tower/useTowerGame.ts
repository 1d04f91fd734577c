import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { apply, createGame, type Action, type ApplyResult, type GameEvent, type GameState, type Thing } from '@site/game-engine';
import { applyEvent, sceneFromState } from './scene.ts';
import { schedulePlayback } from './playback.ts';
import { SceneStore, settle } from './scene-store.ts';
import { clearSavedGame, saveGame } from './storage.ts';
import { buildTimeline } from './timeline.ts';

/** `unranked`: a past daily played from the calendar, never sent to the daily table. */
export type Game = { seed: string; actions: Action[]; state: GameState; unranked?: boolean };

export type Outcome = { ok: true; events: GameEvent[]; looked: Thing[] | null } | { ok: false; message: string };

/** What the last accepted action did, in words, newest last. */
export type LogLine = { id: number; text: string };

/**
 * The game around the engine: the state, the log of accepted actions (saved after each one so a
 * reload can continue), and the playback of each result's events on the scene with the spec's timings.
 * While a playback runs, `busy` is true and `perform` refuses input.
 */
export function useTowerGame(initial: Game, speed: number) {
  const [game, setGame] = useState<Game>(initial);
  const [busy, setBusy] = useState(false);
  const [log, setLog] = useState<LogLine[]>([]);
  const gameRef = useRef(game);
  const busyRef = useRef(false);
  const timers = useRef<number[]>([]);
  const store = useMemo(() => new SceneStore(sceneFromState(initial.state)), [initial]);
  const lineId = useRef(0);

  useEffect(() => () => timers.current.forEach((t) => window.clearTimeout(t)), []);

  const narrate = useCallback((events: readonly GameEvent[], state: GameState, before: GameState) => {
    const lines = events.map((e) => describeEvent(e, state, before)).filter((t): t is string => t !== null);
    if (lines.length === 0) return;
    setLog((old) => [...old, ...lines.map((text) => ({ id: ++lineId.current, text }))].slice(-40));
  }, []);

  const play = useCallback(
    (events: GameEvent[], final: GameState, before: GameState) => {
      const timeline = buildTimeline(events, final.enemies.length, speed);
      const start = performance.now();
      if (timeline.total <= 0) {
        let scene = store.get();
        for (const step of timeline.steps) scene = applyEvent(scene, step.event, start, step.duration, final);
        store.set(settle(scene, final));
        narrate(events, final, before);
        return;
      }
      busyRef.current = true;
      setBusy(true);
      timers.current = schedulePlayback(
        store,
        timeline,
        final,
        (moment) => narrate(moment, final, before),
        () => {
          timers.current = [];
          busyRef.current = false;
          setBusy(false);
        },
      );
    },
    [narrate, speed, store],
  );

  /** Applies an action through the engine. Look is answered but not logged (it never changes the state). */
  const perform = useCallback(
    (action: Action): Outcome => {
      if (busyRef.current) return { ok: false, message: 'Wait for the enemies to finish their turn' };
      const current = gameRef.current;
      const result: ApplyResult = apply(current.state, action);
      if (!result.ok) return { ok: false, message: result.message };
      if (action.type === 'look') {
        const looked = result.events.find((e) => e.type === 'looked');
        return { ok: true, events: result.events, looked: looked?.type === 'looked' ? looked.things : [] };
      }
      const next: Game = { ...current, actions: [...current.actions, action], state: result.state };
      gameRef.current = next;
      setGame(next);
      saveGame(next.seed, next.actions, next.state, next.unranked === true);
      play(result.events, result.state, current.state);
      return { ok: true, events: result.events, looked: null };
    },
    [play],
  );

  return { game, busy, perform, store, log };
}

/** A new game with this seed, saved at once so a reload before the first move still continues it. */
export function newGame(seed: string, unranked = false): Game {
  const state = createGame({ seed });
  clearSavedGame();
  saveGame(seed, [], state, unranked);
  return { seed, actions: [], state, ...(unranked ? { unranked } : {}) };
}

function nameIn(id: string, state: GameState): string | undefined {
  return state.survivors.find((s) => s.id === id)?.name ?? state.enemies.find((e) => e.id === id)?.name;
}

export function describeEvent(e: GameEvent, state: GameState, before: GameState): string | null {
  const nameOf = (id: string) => nameIn(id, state) ?? nameIn(id, before) ?? 'Something';
  switch (e.type) {
    case 'phase':
      return e.phase === 'Enemies' ? `Round ${e.round}: the enemies move` : `Round ${e.round}: your turn`;
    case 'spawned':
      return `A ${e.kind} crawls out of a vent`;
    case 'attacked':
      return `${nameOf(e.attackerId)} attacks ${nameOf(e.targetId)}: rolled ${e.rolls.join(' + ') || '0'} = ${e.damage}`;
    case 'dodged':
      return `${nameOf(e.actorId)} dodged`;
    case 'died':
      return `${nameOf(e.actorId)} died`;
    case 'xp':
      return `${nameOf(e.survivorId)} gains ${e.amount} XP (${e.xp})`;
    case 'reloaded':
      return `${nameOf(e.survivorId)} reloads (${e.ammo} rounds)`;
    case 'passed':
      return `${nameOf(e.survivorId)} passes`;
    case 'joined':
      return `${e.name} wakes up and joins the team`;
    case 'upgraded':
      return `${nameOf(e.survivorId)} upgrades a weapon`;
    case 'augmented':
      return `${nameOf(e.survivorId)} installs an augment`;
    case 'picked':
      return `${nameOf(e.survivorId)} picks something up`;
    case 'dropped':
      return `${nameOf(e.survivorId)} drops an item`;
    case 'levelled':
      return `Up the stairs: ${e.name}`;
    case 'won':
      return 'You escaped the tower!';
    case 'lost':
      return 'Nobody is left standing.';
    default:
      return null;
  }
}
