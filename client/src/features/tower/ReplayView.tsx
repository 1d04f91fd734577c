import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { hashState, replayFragment } from '@site/game-engine';
import { TOWER_REPLAY_PAGE } from '@site/contracts/tower';
import { ActorList } from './ActorList.tsx';
import { MapTools } from './MapTools.tsx';
import { schedulePlayback } from './playback.ts';
import { sceneFromState } from './scene.ts';
import { SceneStore, settle } from './scene-store.ts';
import { floorMapOf, TileMap, type TileMapHandle } from './TileMap.tsx';
import { buildTimeline } from './timeline.ts';
import { clampStep, stepOfRound, type Tape } from './replay-tape.ts';
import { describeEvent } from './useTowerGame.ts';
import { NumberInput } from '../../components/NumberInput.tsx';
import { parseNumber } from '../../components/number.ts';

const SPEEDS = [0.5, 1, 2, 4, 8] as const;
/** The pause between two steps while playing, before the speed. */
const STEP_PAUSE_MS = 500;

type Props = { tape: Tape; initialSpeed: number; onClose: () => void };

/**
 * Plays a replay on the game's own map and playback: a step forward plays its events with the spec's
 * timings (timeline.ts) on the same scene and TileMap as the game; going back or jumping shows the
 * state at once. The state shown is always the engine's state after that many actions.
 */
export function ReplayView({ tape, initialSpeed, onClose }: Props) {
  const last = tape.steps.length - 1;
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [busy, setBusy] = useState(false);
  const [speed, setSpeed] = useState(initialSpeed);
  const [roundInput, setRoundInput] = useState('');
  const first = tape.steps[0];
  if (!first) throw new Error('A replay has at least its first state');
  const store = useMemo(() => new SceneStore(sceneFromState(first.state)), [first]);
  const timers = useRef<number[]>([]);
  const mapHandle = useRef<TileMapHandle>(null);
  const step = tape.steps[index] ?? first;
  const state = step.state;
  const stateHash = useMemo(() => hashState(state), [state]);
  const floorDef = state.levels[state.levelIndex];
  const before = tape.steps[index - 1]?.state ?? state;
  const lines = step.events.map((e) => describeEvent(e, state, before)).filter((t): t is string => t !== null);

  const stopTimers = useCallback(() => {
    timers.current.forEach((t) => window.clearTimeout(t));
    timers.current = [];
  }, []);
  useEffect(() => stopTimers, [stopTimers]);

  /** Shows step `target`: animated when it is the next one, at once otherwise. */
  const goTo = useCallback(
    (target: number) => {
      const next = clampStep(tape, target);
      const nextStep = tape.steps[next];
      if (!nextStep) return;
      stopTimers();
      setIndex(next);
      if (next !== index + 1) {
        store.set(sceneFromState(nextStep.state));
        setBusy(false);
        return;
      }
      const current = tape.steps[index];
      if (current) store.set(settle(store.get(), current.state));
      const final = nextStep.state;
      const timeline = buildTimeline(nextStep.events, final.enemies.length, speed);
      setBusy(true);
      timers.current = schedulePlayback(store, timeline, final, () => undefined, () => setBusy(false));
    },
    [index, speed, stopTimers, store, tape],
  );

  // Playing: the next step once the current one has been shown and a short pause has passed.
  useEffect(() => {
    if (!playing || busy) return;
    if (index >= last) {
      setPlaying(false);
      return;
    }
    const timer = window.setTimeout(() => goTo(index + 1), STEP_PAUSE_MS / speed);
    return () => window.clearTimeout(timer);
  }, [busy, goTo, index, last, playing, speed]);

  const lastRound = tape.steps[last]?.state.round ?? 1;
  const roundRules = { label: 'Round', whole: true, min: 1, max: lastRound };
  // Encodes the whole action log: once per replay, not on every step's render while playing.
  const link = useMemo(() => `${TOWER_REPLAY_PAGE}${replayFragment(tape)}`, [tape]);

  return (
    <div
      className="tower-game tower-replay"
      data-testid="replay-board"
      data-step={index}
      data-steps={last}
      data-state-hash={stateHash}
      data-round={state.round}
      data-status={state.status}
      data-busy={busy ? 'true' : 'false'}
      data-playing={playing ? 'true' : 'false'}
    >
      <header className="tower-header">
        <div className="tower-title">
          <h1>Microsoft Tower replay</h1>
          <p className="tower-subtitle">
            {floorDef?.name} · Round {state.round} · Seed <code>{tape.seed}</code> · Step{' '}
            <span data-testid="replay-position">
              {index} of {last}
            </span>
            {state.status !== 'playing' ? ` · ${state.status === 'won' ? 'Won' : 'Lost'}` : ''}
          </p>
        </div>
        <div className="tower-header-buttons">
          <a className="button" href={link} data-testid="replay-link">
            Link to this replay
          </a>
          <button type="button" className="button" onClick={onClose}>
            Open another
          </button>
        </div>
      </header>

      <div className="tower-stage">
        <TileMap
          handle={mapHandle}
          store={store}
          {...floorMapOf(state, busy)}
          highlight={null}
          cursor={null}
          chosen={null}
          onTileClick={() => undefined}
          label={`${floorMapOf(state, busy).label}, step ${index} of the replay`}
          focus={null}
        />
        <MapTools mapHandle={mapHandle} />
        {lines.length > 0 ? (
          <ol className="tower-log" aria-label="What this step did" data-testid="replay-log">
            {lines.slice(-6).map((line, i) => (
              <li key={`${index}-${i}`}>{line}</li>
            ))}
          </ol>
        ) : null}
      </div>

      <nav className="tower-replay-controls" aria-label="Replay controls">
        <button type="button" className="button" onClick={() => goTo(0)} disabled={index === 0}>
          First
        </button>
        <button type="button" className="button" onClick={() => goTo(index - 1)} disabled={index === 0}>
          Previous
        </button>
        <button type="button" className="button primary" onClick={() => setPlaying((p) => !p)} disabled={index >= last && !playing}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <button type="button" className="button" onClick={() => goTo(index + 1)} disabled={index >= last}>
          Next
        </button>
        <button type="button" className="button" onClick={() => goTo(last)} disabled={index >= last}>
          Last
        </button>
        <label className="tower-replay-field">
          <span>Speed</span>
          <select value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
            {(SPEEDS.includes(speed as (typeof SPEEDS)[number]) ? SPEEDS : [...SPEEDS, speed]).map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        <form
          className="tower-replay-field"
          onSubmit={(e) => {
            e.preventDefault();
            const round = parseNumber(roundInput, roundRules);
            if (round.ok && round.value !== null) goTo(stepOfRound(tape, round.value));
          }}
        >
          <NumberInput rules={roundRules} value={roundInput} onValueChange={setRoundInput} placeholder={`1–${lastRound}`} />
          <button type="submit" className="button">
            Go
          </button>
        </form>
      </nav>
      <ActorList store={store} />
    </div>
  );
}
