import { useId, type ReactNode } from 'react';
import type { GameState } from '@site/game-engine';

/** Won or lost: the outcome, the seed, and the way to a new game or the replay file. */
export function EndScreen({
  state,
  seed,
  onNewGame,
  onExport,
  children,
}: {
  state: GameState;
  seed: string;
  onNewGame: () => void;
  onExport: () => void;
  /** Extra content under the outcome (the daily tower's result). */
  children?: ReactNode;
}) {
  const won = state.status === 'won';
  const titleId = useId();
  return (
    <div className={`tower-end ${won ? 'won' : 'lost'}`} role="dialog" aria-modal="false" aria-labelledby={titleId} data-testid="end-screen">
      <div className="tower-modal-box">
        <h2 id={titleId}>{won ? 'You escaped the tower!' : 'Game over'}</h2>
        <p>
          {won
            ? `${state.survivors.map((s) => s.name).join(', ')} made it out in ${state.round} rounds.`
            : `The tower claimed your team in round ${state.round}.`}{' '}
          Seed <code>{seed}</code>.
        </p>
        {children}
        <div className="tower-row">
          <button type="button" className="button primary" onClick={onNewGame}>
            New Game
          </button>
          <button type="button" className="button" onClick={onExport}>
            Export replay
          </button>
        </div>
      </div>
    </div>
  );
}
