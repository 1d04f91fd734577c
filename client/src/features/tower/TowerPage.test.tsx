import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apply, createGame, dailySeed, hashState, type Action, type GameEvent, type GameState } from '@site/game-engine';
import type { DailyToday } from '@site/contracts/tower-daily';
import { FakeTrpcError, renderWithSite, type FakeProcedures } from '../../test/render.tsx';
import { passUntilOver } from '../../test/tower-game.ts';
import TowerPage from './TowerPage.tsx';
import { EndScreen } from './EndScreen.tsx';
import { saveGame } from './storage.ts';
import { buildTimeline } from './timeline.ts';

const SEED = 'unit-seed-3';

function engine(actions: Action[]): { state: GameState; events: GameEvent[] } {
  let state = createGame({ seed: SEED });
  let events: GameEvent[] = [];
  for (const action of actions) {
    const result = apply(state, action);
    if (!result.ok) throw new Error(result.message);
    state = result.state;
    events = result.events;
  }
  return { state, events };
}

const DAY = '2026-11-24';
const TODAY: DailyToday = { date: DAY, seed: dailySeed(DAY), table: [{ rank: 1, member: 'amy', rounds: 14, floors: 2, won: false }] };
/** The page with a fake server that knows today's daily tower. */
const WEEK = { period: 'week', from: '2026-11-23', to: '2026-11-29', table: [{ rank: 1, member: 'amy', days: 1, wins: 0, floors: 2, rounds: 14 }] };
const showPage = (procedures: FakeProcedures = {}) =>
  renderWithSite(<TowerPage />, {
    procedures: {
      'towerDaily.today': () => TODAY,
      'towerDaily.leaderboard': (input) => ({ ...WEEK, period: (input as { period: string }).period }),
      'towerDaily.day': (input) => ({ date: (input as { date: string }).date, seed: dailySeed((input as { date: string }).date), table: [] }),
      ...procedures,
    },
  });

const board = () => screen.getByTestId('tower-board');
const key = (k: string) => act(() => void fireEvent.keyDown(document.body, { key: k }));

describe('the tower page', () => {
  beforeEach(() => {
    localStorage.clear();
    // jsdom has no canvas; the map simply draws nothing.
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  });
  afterEach(() => localStorage.clear());

  it('starts a seeded game, moves with the keyboard, plays the enemy phase at the spec timings and continues after a reload', () => {
    vi.useFakeTimers();
    const { unmount } = showPage();
    fireEvent.change(screen.getByLabelText(/^Seed/), { target: { value: SEED } });
    fireEvent.click(screen.getByRole('button', { name: 'New Game' }));
    expect(board()).toHaveAttribute('data-seed', SEED);
    expect(board()).toHaveAttribute('data-state-hash', hashState(createGame({ seed: SEED })));

    key('d');
    const ada = createGame({ seed: SEED }).survivors[0];
    if (!ada) throw new Error('no survivor');
    const log: Action[] = [{ type: 'move', x: ada.x + 1, y: ada.y }];
    expect(board()).toHaveAttribute('data-state-hash', hashState(engine(log).state));
    expect(screen.getByRole('img', { name: '2 of 3 actions left' })).toBeInTheDocument();

    key('Enter');
    key('Enter');
    log.push({ type: 'pass' }, { type: 'pass' });
    const { state, events } = engine(log);
    const total = buildTimeline(events, state.enemies.length).total;
    expect(total).toBeGreaterThan(2000);
    expect(board()).toHaveAttribute('data-busy', 'true');
    expect(board()).toHaveAttribute('data-state-hash', hashState(state));
    // Input is locked during the playback.
    key('d');
    act(() => void vi.advanceTimersByTime(total - 1));
    expect(board()).toHaveAttribute('data-busy', 'true');
    act(() => void vi.advanceTimersByTime(1));
    expect(board()).toHaveAttribute('data-busy', 'false');
    expect(board()).toHaveAttribute('data-actions', '3');
    const drawn = [...screen.getByTestId('actor-list').querySelectorAll('li')].map((li) => `${li.dataset.actorId}@${li.dataset.x},${li.dataset.y}`);
    expect(drawn.sort()).toEqual([...state.survivors, ...state.enemies].map((a) => `${a.id}@${a.x},${a.y}`).sort());

    unmount();
    showPage();
    expect(screen.getByText(/round 2/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(board()).toHaveAttribute('data-state-hash', hashState(state));
  });

  it('opens the how-to note with ? and closes it with Back', () => {
    showPage();
    fireEvent.click(screen.getByRole('button', { name: 'New Game' }));
    fireEvent.click(screen.getByRole('button', { name: 'How to play' }));
    // The page's level-one heading while it shows (the game, with its own, is hidden).
    expect(screen.getByRole('heading', { level: 1, name: 'How to play' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByTestId('tower-help')).toHaveTextContent('enter');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.queryByTestId('tower-help')).toBeNull();
    expect(board()).toBeVisible();
  });

  it('closes the how-to note with Escape, its Back button first in the note and focused', () => {
    showPage();
    fireEvent.click(screen.getByRole('button', { name: 'New Game' }));
    fireEvent.click(screen.getByRole('button', { name: 'How to play' }));
    const note = screen.getByTestId('tower-help');
    const back = screen.getByRole('button', { name: 'Back' });
    expect(note.querySelector('button')).toBe(back);
    expect(document.activeElement).toBe(back);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(screen.queryByTestId('tower-help')).toBeNull();
    expect(board()).toBeVisible();
  });

  it('shows the engine message word for word, and the Look panel with c and escape', () => {
    showPage();
    fireEvent.change(screen.getByLabelText(/^Seed/), { target: { value: SEED } });
    fireEvent.click(screen.getByRole('button', { name: 'New Game' }));
    key('c');
    expect(board()).toHaveAttribute('data-mode', 'look');
    // The cursor starts on the survivor: space lists who stands there.
    key(' ');
    expect(screen.getByTestId('look-list')).toHaveTextContent('Ada');
    key('Escape');
    key('Escape');
    expect(board()).toHaveAttribute('data-mode', 'idle');
    // Ada starts on 2,2 below a wall at 2,0: the second step up is refused with the engine's message.
    key('w');
    key('w');
    expect(screen.getByTestId('game-message')).toHaveTextContent("You can't move there");
  });

  it('shows the loss screen for a lost game, and the win screen for a won one', () => {
    const { state, actions } = passUntilOver(SEED);
    expect(state.status).toBe('lost');
    saveGame(SEED, actions, state);
    showPage();
    // A lost game is not offered as one in progress.
    expect(screen.queryByText(/in progress/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue' })).not.toBeInTheDocument();
    expect(screen.getByText(/Your last game is over: seed/)).toHaveTextContent(`lost in round ${state.round}`);
    fireEvent.click(screen.getByRole('button', { name: 'See how it ended' }));
    expect(screen.getByRole('dialog', { name: 'Game over' })).toHaveTextContent(`round ${state.round}`);
    expect(screen.getByRole('button', { name: /^Move/ })).toBeDisabled();

    const won = { ...state, status: 'won' as const, survivors: [{ ...state.survivors[0], name: 'Ada' }] } as GameState;
    render(<EndScreen state={won} seed={SEED} onNewGame={() => undefined} onExport={() => undefined} />);
    expect(screen.getByRole('dialog', { name: 'You escaped the tower!' })).toHaveTextContent('Ada made it out');
  });

  it("shows today's table, starts today's tower, and sends a finished daily game's log to the server once", async () => {
    const { state, actions } = passUntilOver(dailySeed(DAY));
    const submitted = { result: { rounds: state.round - 1, floors: 1, won: false }, best: true, today: { ...TODAY, table: [...TODAY.table, { rank: 2, member: 'bob', rounds: state.round - 1, floors: 1, won: false }] } };
    const first = showPage({ 'towerDaily.submit': () => submitted });
    expect(await screen.findByTestId('daily-table')).toHaveTextContent('amy');
    fireEvent.click(screen.getByRole('button', { name: "Play today's tower" }));
    expect(board()).toHaveAttribute('data-seed', `daily-${DAY}`);
    expect(board()).toHaveAttribute('data-state-hash', hashState(createGame({ seed: dailySeed(DAY) })));

    first.unmount();
    saveGame(dailySeed(DAY), actions, state);
    const { calls } = showPage({ 'towerDaily.submit': () => submitted });
    fireEvent.click(screen.getByRole('button', { name: 'See how it ended' }));
    expect(await screen.findByText(/Counted for 2026-11-24: \d+ rounds, 1 floor — your best today/)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Game over' })).toHaveTextContent('bob');
    const sent = calls.filter((c) => c.path === 'towerDaily.submit');
    expect(sent).toEqual([{ path: 'towerDaily.submit', input: { date: DAY, actions } }]);
  });

  it('says why a daily game was not counted', async () => {
    const { state, actions } = passUntilOver(dailySeed(DAY));
    saveGame(dailySeed(DAY), actions, state);
    showPage({ 'towerDaily.submit': () => { throw new FakeTrpcError('Action 3 of 40 is not legal on replay: Not your turn'); } });
    fireEvent.click(screen.getByRole('button', { name: 'See how it ended' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Not counted: Action 3 of 40 is not legal on replay'));
  });

  it('shows the leaderboard and the calendar of past dailies; a past daily plays unranked and is never sent', async () => {
    const first = showPage();
    expect(await screen.findByTestId('leaderboard-table')).toHaveTextContent('amy');
    const calendar = screen.getByRole('group', { name: 'The last 30 days' });
    expect(calendar.querySelectorAll('button')).toHaveLength(30);
    fireEvent.click(screen.getByRole('button', { name: 'Fri 20 Nov 2026' }));
    expect(await screen.findByText("Nobody finished this day's tower.")).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Play 2026-11-20 unranked' }));
    expect(board()).toHaveAttribute('data-seed', 'daily-2026-11-20');
    first.unmount();

    // The finished past daily, after a reload: still unranked, nothing sent.
    const { state, actions } = passUntilOver(dailySeed('2026-11-20'));
    saveGame(dailySeed('2026-11-20'), actions, state, true);
    const { calls } = showPage();
    fireEvent.click(screen.getByRole('button', { name: 'See how it ended' }));
    expect(await screen.findByTestId('daily-unranked')).toHaveTextContent('The tower of 2026-11-20, played unranked: past dailies do not enter the tables.');
    expect(calls.filter((c) => c.path === 'towerDaily.submit')).toEqual([]);
  });
});
