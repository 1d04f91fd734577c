import type { GameEvent, GameState, Interactible, Item } from '@site/game-engine';

/** A survivor or enemy as drawn: its tile, plus an optional walk from another tile in progress. */
export type Token = {
  id: string;
  side: 'survivor' | 'enemy';
  kind: string;
  name: string;
  x: number;
  y: number;
  hp: number;
  hpMax: number;
  fromX: number;
  fromY: number;
  moveStart: number;
  moveMs: number;
  /** Appears with a grow animation from this time. */
  bornAt: number;
  hitUntil: number;
};

export type Effect =
  | { type: 'shot'; fromX: number; fromY: number; x: number; y: number; start: number; until: number; enemy: boolean }
  | { type: 'text'; x: number; y: number; text: string; color: 'damage' | 'miss' | 'info'; start: number; until: number };

/** What the canvas shows. Between playbacks it equals the engine state; during one it lags behind. */
export type Scene = {
  tokens: Token[];
  interactibles: Interactible[];
  items: Item[];
  effects: Effect[];
};

export function sceneFromState(state: GameState): Scene {
  const tokens: Token[] = [];
  for (const s of state.survivors) {
    tokens.push(token(s.id, 'survivor', 'survivor', s.name, s.x, s.y, s.hp, s.hpMax));
  }
  for (const e of state.enemies) tokens.push(token(e.id, 'enemy', e.kind, e.name, e.x, e.y, e.hp, e.hpMax));
  return { tokens, interactibles: state.interactibles, items: state.items, effects: [] };
}

function token(id: string, side: Token['side'], kind: string, name: string, x: number, y: number, hp: number, hpMax: number): Token {
  return { id, side, kind, name, x, y, hp, hpMax, fromX: x, fromY: y, moveStart: 0, moveMs: 0, bornAt: -Infinity, hitUntil: 0 };
}

/**
 * Shows one event on the scene at time `now` (ms, performance clock). `final` is the engine's state
 * after the action, used for things an event does not carry (a spawned enemy's stats, a newcomer).
 */
export function applyEvent(scene: Scene, event: GameEvent, now: number, duration: number, final: GameState): Scene {
  const find = (id: string) => scene.tokens.find((t) => t.id === id);
  switch (event.type) {
    case 'stepped': {
      const t = find(event.actorId);
      if (!t) return scene;
      const moved = { ...t, fromX: event.fromX, fromY: event.fromY, x: event.x, y: event.y, moveStart: now, moveMs: Math.max(duration, 60) };
      return { ...scene, tokens: scene.tokens.map((v) => (v === t ? moved : v)) };
    }
    case 'spawned': {
      const stats = final.enemies.find((e) => e.id === event.enemyId);
      const name = stats?.name ?? event.kind;
      const spawned = { ...token(event.enemyId, 'enemy', event.kind, name, event.x, event.y, stats?.hpMax ?? 1, stats?.hpMax ?? 1), bornAt: now };
      return { ...scene, tokens: [...scene.tokens, spawned] };
    }
    case 'joined': {
      const s = final.survivors.find((v) => v.id === event.survivorId);
      const joined = { ...token(event.survivorId, 'survivor', 'survivor', event.name, event.x, event.y, s?.hp ?? 5, s?.hpMax ?? 5), bornAt: now };
      return { ...scene, tokens: [...scene.tokens, joined], interactibles: final.interactibles };
    }
    case 'attacked': {
      const enemy = scene.tokens.find((t) => t.id === event.attackerId)?.side === 'enemy';
      const shot: Effect = { type: 'shot', fromX: event.fromX, fromY: event.fromY, x: event.x, y: event.y, start: now, until: now + 260, enemy };
      return { ...scene, effects: [...pruned(scene.effects, now), shot] };
    }
    case 'damaged': {
      const text: Effect = { type: 'text', x: event.x, y: event.y, text: `-${event.amount}`, color: 'damage', start: now, until: now + 900 };
      return {
        ...scene,
        tokens: scene.tokens.map((t) => (t.id === event.actorId ? { ...t, hp: event.hp, hitUntil: now + 250 } : t)),
        effects: [...pruned(scene.effects, now), text],
      };
    }
    case 'dodged': {
      const text: Effect = { type: 'text', x: event.x, y: event.y, text: 'dodge', color: 'miss', start: now, until: now + 900 };
      return { ...scene, effects: [...pruned(scene.effects, now), text] };
    }
    case 'died':
      return { ...scene, tokens: scene.tokens.filter((t) => t.id !== event.actorId) };
    case 'picked':
    case 'dropped':
    case 'upgraded':
    case 'opened':
      return { ...scene, items: final.items, interactibles: final.interactibles };
    case 'levelled':
      return sceneFromState(final);
    default:
      return scene;
  }
}

function pruned(effects: Effect[], now: number): Effect[] {
  return effects.filter((e) => e.until > now);
}

/** Whether anything on the scene is still moving at `now`. */
export function sceneAnimating(scene: Scene, now: number): boolean {
  return (
    scene.effects.some((e) => e.until > now) ||
    scene.tokens.some((t) => now < t.moveStart + t.moveMs || now < t.bornAt + 250 || now < t.hitUntil)
  );
}
