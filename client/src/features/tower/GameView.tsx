import { useMemo, useRef } from 'react';
import { activeSurvivor, floorTiles, hashState } from '@site/game-engine';
import { ActorList } from './ActorList.tsx';
import { DailySubmit, DailyUnranked, dailyDateOf } from './DailyPanel.tsx';
import { MapTools } from './MapTools.tsx';
import { EndScreen } from './EndScreen.tsx';
import { MenuBar } from './MenuBar.tsx';
import { NamePrompt } from './panels.tsx';
import { downloadReplay } from './replay-download.ts';
import { SubPanel } from './SubPanel.tsx';
import { floorMapOf, TileMap, type TileMapHandle } from './TileMap.tsx';
import { IDLE, useGameControls } from './useGameControls.ts';
import { useGameKeys } from './useGameKeys.ts';
import { useTowerGame, type Game } from './useTowerGame.ts';

type Props = { initial: Game; speed: number; paused: boolean; onHelp: () => void; onNewGame: () => void };

/**
 * The game screen: header, map, sub-panels and the bottom menu. The parts live beside it: the playback
 * of results (useTowerGame), the flow of the sub-panels (useGameControls), the keyboard (useGameKeys),
 * the panel under the map (SubPanel), the bottom menu (MenuBar) and the end screen (EndScreen).
 */
export function GameView({ initial, speed, paused, onHelp, onNewGame }: Props) {
  const { game, busy, perform, store, log } = useTowerGame(initial, speed);
  const state = game.state;
  const playing = state.status === 'playing';
  const canAct = playing && !busy && !paused && activeSurvivor(state) !== null;
  const controls = useGameControls(state, perform, canAct);
  const { survivor, mode, setMode, cursor, message, act } = controls;
  const mapHandle = useRef<TileMapHandle>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const floor = floorTiles(state);
  const floorDef = state.levels[state.levelIndex];
  const stateHash = useMemo(() => hashState(state), [state]);
  useGameKeys({ controls, paused, canAct, rootRef, mapHandle, width: floor.width, height: floor.height });

  /** After a click on a menu button the keys belong to the game again (space must not re-press the button). */
  const refocus = () => rootRef.current?.focus({ preventScroll: true });
  const exportReplay = () => downloadReplay(game);
  const lastLines = log.slice(-4);
  const daily = dailyDateOf(game.seed);

  return (
    <div
      className="tower-game"
      ref={rootRef}
      tabIndex={-1}
      data-testid="tower-board"
      data-seed={game.seed}
      data-state-hash={stateHash}
      data-actions={game.actions.length}
      data-round={state.round}
      data-phase={state.phase}
      data-status={state.status}
      data-level={state.levelIndex}
      data-active={state.activeSurvivorId ?? ''}
      data-busy={busy ? 'true' : 'false'}
      data-mode={mode.kind}
    >
      <header className="tower-header">
        <div className="tower-title">
          <h1>Microsoft Tower</h1>
          <p className="tower-subtitle">
            {floorDef?.name} · Round {state.round} · Seed <code data-testid="tower-seed">{game.seed}</code>
          </p>
        </div>
        <div className="tower-header-buttons">
          <button type="button" className="button" onClick={exportReplay} data-testid="export-replay">
            Export replay
          </button>
          <button type="button" className="button" onClick={onNewGame}>
            New Game
          </button>
          <button type="button" className="button tower-help-button" aria-label="How to play" title="How to play" onClick={onHelp}>
            ?
          </button>
        </div>
      </header>

      <div className="tower-stage">
        <TileMap
          handle={mapHandle}
          store={store}
          {...floorMapOf(state, busy)}
          highlight={canAct ? controls.highlight : null}
          cursor={canAct ? cursor : null}
          chosen={canAct ? controls.chosen : null}
          onTileClick={controls.onTileClick}
          focus={survivor ? { x: survivor.x, y: survivor.y } : null}
        />
        <MapTools mapHandle={mapHandle} />
        {busy ? (
          <p className="tower-banner" role="status">
            Enemy turn…
          </p>
        ) : null}
        {lastLines.length > 0 ? (
          <ol className="tower-log" aria-label="What happened">
            {lastLines.map((line) => (
              <li key={line.id}>{line.text}</li>
            ))}
          </ol>
        ) : null}
        <div className="tower-drawer">
          {message ? (
            <p className="tower-message" role="alert" data-testid="game-message">
              {message}
            </p>
          ) : null}
          <SubPanel controls={controls} canAct={canAct} />
        </div>
        {!playing && !busy ? (
          <EndScreen state={state} seed={game.seed} onNewGame={onNewGame} onExport={exportReplay}>
            {daily && game.unranked ? <DailyUnranked date={daily} /> : daily ? <DailySubmit game={game} date={daily} /> : null}
          </EndScreen>
        ) : null}
      </div>

      <MenuBar
        survivor={survivor}
        store={store}
        mode={mode}
        canAct={canAct}
        onCycle={(direction) => act({ type: 'cycle', direction })}
        onToggle={controls.toggle}
        onPass={controls.pass}
        refocus={refocus}
      />
      <ActorList store={store} />
      {mode.kind === 'name' ? (
        <NamePrompt
          onCancel={() => setMode({ kind: 'interact' })}
          onSubmit={(name) => {
            if (act({ type: 'interact', targetId: mode.targetId, name })) setMode(IDLE);
            else setMode({ kind: 'interact' });
          }}
        />
      ) : null}
    </div>
  );
}
