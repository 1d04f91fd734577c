import type { GameState, Thing } from '@site/game-engine';

/** The Interact list's button for a thing next to the survivor. */
export function interactLabel(state: GameState, thing: Thing): string {
  const kind = state.interactibles.find((i) => i.id === thing.id)?.kind;
  if (kind === 'cryochamber') return 'Open';
  if (kind === 'upgradeStation') return 'Upgrade';
  if (kind === 'stairs') return 'Climb';
  return 'Interact';
}

/** The Look list's line about a thing once the player picks it. */
export function describeThing(state: GameState, thing: Thing): string {
  if (thing.kind === 'enemy') {
    const e = state.enemies.find((v) => v.id === thing.id);
    return e ? `${e.kind}: moves ${e.move}, ${e.actionsMax} actions, worth ${e.xp} XP` : '';
  }
  if (thing.kind === 'survivor') {
    const s = state.survivors.find((v) => v.id === thing.id);
    return s ? `${s.actions} actions left, ${s.xp} XP, carries ${s.inventory.map((i) => i.name).join(', ') || 'nothing'}` : '';
  }
  if (thing.kind === 'item') return state.items.find((i) => i.id === thing.id)?.description ?? '';
  const i = state.interactibles.find((v) => v.id === thing.id);
  const notes: Record<string, string> = {
    stairs: 'The way up. Everyone standing must be on it.',
    entrance: 'The way you came in.',
    cryochamber: 'Someone is asleep inside.',
    brokenCryochamber: 'Empty now.',
    upgradeStation: 'Upgrades a revolver or burst pistol for 3 XP.',
    terminal: 'Dead screen.',
  };
  return i ? (notes[i.kind] ?? '') : '';
}
