import { toReplayFile } from '@site/game-engine';
import type { Game } from './useTowerGame.ts';

/** Saves the game so far as a replay file (seed + action log + final hash) that `npm run sim -- --replay` verifies. */
export function downloadReplay(game: Game): void {
  const file = toReplayFile(game.seed, game.actions, game.state);
  const blob = new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `tower-replay-${game.seed}-round-${game.state.round}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
