import { useMemo, useState } from 'react';
import { TOWER_REPLAY_PAGE } from '@site/contracts/tower';
import { DailyCard } from './DailyPanel.tsx';
import { HelpNote } from './HelpNote.tsx';
import { GameView } from './GameView.tsx';
import { loadSavedGame, randomSeed } from './storage.ts';
import { playbackSpeed } from './timeline.ts';
import { newGame, type Game } from './useTowerGame.ts';
import './tower.css';

/**
 * /personal/dungeon-crawler: the tower game, played entirely in the browser. The only server calls are the
 * daily tower's: today's seed and table, the finished daily game's action log (the server replays it), the
 * family leaderboard, and the calendar of past dailies (their tables; played unranked, never sent).
 * The game in progress is kept in localStorage as its seed and action log; a reload offers Continue.
 */
export default function TowerPage() {
  const saved = useMemo(() => loadSavedGame(), []);
  const speed = useMemo(() => playbackSpeed(window.location.search, safeStorage()), []);
  const [game, setGame] = useState<Game | null>(null);
  // Every new game gets a fresh GameView (and with it a fresh scene and playback).
  const [gameKey, setGameKey] = useState(0);
  const [help, setHelp] = useState(false);
  const [starting, setStarting] = useState(false);

  const start = (seed: string, unranked = false) => {
    setGame(newGame(seed.trim() || randomSeed(), unranked));
    setGameKey((k) => k + 1);
    setStarting(false);
  };

  const resumable = saved && !('error' in saved) ? saved : null;
  const showStart = game === null || starting;

  return (
    <main className="tower-page" data-testid="tower">
      {game ? (
        <div hidden={help || starting} className="tower-game-slot">
          <GameView key={gameKey} initial={game} speed={speed} paused={help || starting} onHelp={() => setHelp(true)} onNewGame={() => setStarting(true)} />
        </div>
      ) : null}
      {help ? (
        <div className="tower-overlay-page">
          <HelpNote onBack={() => setHelp(false)} />
        </div>
      ) : showStart ? (
        <div className="tower-overlay-page">
          {game === null ? (
            <header className="tower-header">
              <div className="tower-title">
                <h1>Microsoft Tower</h1>
                <p className="tower-subtitle">A turn-based climb through a tower full of monsters.</p>
              </div>
              <div className="tower-header-buttons">
                <a className="button" href={TOWER_REPLAY_PAGE}>
                  Watch a replay
                </a>
                <button type="button" className="button tower-help-button" aria-label="How to play" title="How to play" onClick={() => setHelp(true)}>
                  ?
                </button>
              </div>
            </header>
          ) : null}
          <StartCard
            resumable={game === null ? resumable : null}
            problem={saved && 'error' in saved ? saved.error : null}
            onContinue={() => {
              if (!resumable) return;
              setGame({ seed: resumable.seed, actions: resumable.actions, state: resumable.state, ...(resumable.unranked ? { unranked: true } : {}) });
              setGameKey((k) => k + 1);
            }}
            onStart={start}
            onCancel={game ? () => setStarting(false) : null}
          />
          <DailyCard onPlay={start} />
        </div>
      ) : null}
    </main>
  );
}

function StartCard({
  resumable,
  problem,
  onContinue,
  onStart,
  onCancel,
}: {
  resumable: { seed: string; actions: unknown[]; state: { round: number; status: string } } | null;
  problem: string | null;
  onContinue: () => void;
  onStart: (seed: string) => void;
  onCancel: (() => void) | null;
}) {
  const [seed, setSeed] = useState('');
  // A lost or won game is kept to be looked at (and a daily one to be counted), but it is not "in progress".
  const over = resumable !== null && resumable.state.status !== 'playing';
  return (
    <section className="card tower-start" aria-labelledby="tower-start-title">
      <h2 id="tower-start-title">{resumable && !over ? 'Welcome back' : 'New game'}</h2>
      {problem ? <p className="error-text">{problem}</p> : null}
      {resumable ? (
        <div className="tower-continue">
          {over ? (
            <p>
              Your last game is over: seed <code>{resumable.seed}</code>, {resumable.state.status} in round {resumable.state.round}, {resumable.actions.length} moves.
            </p>
          ) : (
            <p>
              A game is in progress: seed <code>{resumable.seed}</code>, round {resumable.state.round}, {resumable.actions.length} moves.
            </p>
          )}
          <button type="button" className={over ? 'button' : 'button primary'} onClick={onContinue} autoFocus={!over}>
            {over ? 'See how it ended' : 'Continue'}
          </button>
        </div>
      ) : null}
      <form
        className="tower-new-game"
        onSubmit={(e) => {
          e.preventDefault();
          onStart(seed);
        }}
      >
        <label className="field">
          <span>Seed (optional: the same seed always deals the same game)</span>
          <input value={seed} onChange={(e) => setSeed(e.target.value)} placeholder="random" maxLength={40} autoComplete="off" name="seed" />
        </label>
        <div className="tower-row">
          <button type="submit" className={resumable && !over ? 'button' : 'button primary'}>
            New Game
          </button>
          {onCancel ? (
            <button type="button" className="button" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
