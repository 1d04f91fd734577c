import { useCallback, useEffect, useMemo, useState } from 'react';
import { parseReplayFragment } from '@site/game-engine';
import { buildTape, tapeFromFileText, type Tape, type TapeResult } from './replay-tape.ts';
import { ReplayView } from './ReplayView.tsx';
import { playbackSpeed } from './timeline.ts';
import './tower.css';

/**
 * /personal/dungeon-crawler/replay: watch a replay file (the game page's export or `npm run sim --
 * --replay FILE`) chosen with the file picker, or the one carried by a link
 * `#seed=<seed>&actions=<base64url JSON>` (game-engine/src/replay-link.ts). Nothing goes to the server.
 */
export default function ReplayPage() {
  const speed = useMemo(() => playbackSpeed(window.location.search, null), []);
  const [view, setView] = useState<{ tape: Tape | null; problem: string | null; key: number }>({ tape: null, problem: null, key: 0 });
  const { tape, problem } = view;

  const show = useCallback((result: TapeResult) => {
    setView((old) => (result.ok ? { tape: result.tape, problem: null, key: old.key + 1 } : { tape: null, problem: result.message, key: old.key }));
  }, []);

  useEffect(() => {
    const fromHash = () => {
      if (!window.location.hash) return;
      const game = parseReplayFragment(window.location.hash);
      const result = 'error' in game ? { ok: false as const, message: game.error } : buildTape(game);
      show(result);
    };
    fromHash();
    window.addEventListener('hashchange', fromHash);
    return () => window.removeEventListener('hashchange', fromHash);
  }, [show]);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    try {
      show(tapeFromFileText(await readText(file)));
    } catch (error) {
      show({ ok: false, message: (error as Error).message });
    }
  };

  return (
    <main className="tower-page" data-testid="tower-replay">
      {tape ? (
        <div className="tower-game-slot">
          <ReplayView key={view.key} tape={tape} initialSpeed={speed} onClose={() => setView((old) => ({ ...old, tape: null }))} />
        </div>
      ) : (
        <div className="tower-overlay-page">
          <header className="tower-header">
            <div className="tower-title">
              <h1>Microsoft Tower replay</h1>
              <p className="tower-subtitle">Watch a saved game step by step.</p>
            </div>
            <div className="tower-header-buttons">
              <a className="button" href="/personal/dungeon-crawler">
                Play
              </a>
            </div>
          </header>
          <section className="card tower-start" aria-labelledby="tower-replay-title">
            <h2 id="tower-replay-title">Open a replay</h2>
            {problem ? (
              <p className="error-text" role="alert" data-testid="replay-problem">
                {problem}
              </p>
            ) : null}
            <p>A replay file comes from the game's “Export replay” button or from <code>npm run sim -- --replay FILE</code>.</p>
            <label className="field">
              <span>Replay file</span>
              <input type="file" accept=".json,application/json" data-testid="replay-file" onChange={(e) => void pick(e.target.files?.[0])} />
            </label>
          </section>
        </div>
      )}
    </main>
  );
}

/** FileReader rather than Blob.text(): the same in every browser the family uses and in the tests' jsdom. */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(`Cannot read ${file.name}`));
    reader.readAsText(file);
  });
}
