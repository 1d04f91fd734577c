import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashState, replay, replayFragment, toReplayFile } from '@site/game-engine';
import { playedGame } from '../../test/tower-game.ts';
import ReplayPage from './ReplayPage.tsx';
import { buildTape, stepOfRound, tapeFromFileText } from './replay-tape.ts';

const SEED = 'replay-unit-5';

const actions = playedGame(SEED, 90);
/** The engine's own replay of the first i actions, for every i: what each step must show. */
const expectedHashes = actions.map((_, i) => hashState(replay({ seed: SEED }, actions.slice(0, i)).state));
expectedHashes.push(hashState(replay({ seed: SEED }, actions).state));

describe('a replay stepped with the engine', () => {
  it('holds at every step exactly the state of the engine replay of that many actions', () => {
    const result = buildTape({ seed: SEED, actions });
    if (!result.ok) throw new Error(result.message);
    expect(result.tape.steps.map((s) => hashState(s.state))).toEqual(expectedHashes);
    const lastRound = result.tape.steps.at(-1)?.state.round ?? 0;
    expect(lastRound).toBeGreaterThanOrEqual(3);
    const jump = stepOfRound(result.tape, 3);
    expect(result.tape.steps[jump]?.state.round).toBe(3);
    expect(result.tape.steps[jump - 1]?.state.round).toBe(2);
  });

  it('refuses a tampered file and a log with an action the engine rejects', () => {
    const file = toReplayFile(SEED, actions, replay({ seed: SEED }, actions).state);
    expect(tapeFromFileText(JSON.stringify(file)).ok).toBe(true);
    expect(tapeFromFileText(JSON.stringify({ ...file, finalHash: '00000000' }))).toEqual({
      ok: false,
      message: `Final state hash ${file.finalHash} differs from the recorded 00000000`,
    });
    expect(tapeFromFileText('{"format":')).toEqual({ ok: false, message: 'The file is not JSON' });
    expect(buildTape({ seed: SEED, actions: [{ type: 'move', x: -5, y: -5 }] })).toMatchObject({ ok: false, message: expect.stringMatching(/^Action 0 was rejected on replay: /) });
  });
});

describe('the replay page', () => {
  const board = () => screen.getByTestId('replay-board');
  const hash = () => board().getAttribute('data-state-hash');
  const step = () => Number(board().getAttribute('data-step'));
  const click = (name: string) => act(() => void fireEvent.click(screen.getByRole('button', { name })));

  beforeEach(() => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    vi.useFakeTimers();
  });
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('opens a link, steps forward to the end, back, jumps to a round and plays, always on the engine state', () => {
    window.history.replaceState(null, '', `/personal/dungeon-crawler/replay${replayFragment({ seed: SEED, actions })}`);
    render(<ReplayPage />);
    expect(step()).toBe(0);
    expect(hash()).toBe(expectedHashes[0]);
    for (let i = 1; i <= actions.length; i++) {
      click('Next');
      expect(step()).toBe(i);
      expect(hash()).toBe(expectedHashes[i]);
      act(() => void vi.advanceTimersByTime(20_000));
      expect(board()).toHaveAttribute('data-busy', 'false');
    }
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    for (let i = actions.length - 1; i >= actions.length - 5; i--) {
      click('Previous');
      expect(step()).toBe(i);
      expect(hash()).toBe(expectedHashes[i]);
    }
    fireEvent.change(screen.getByRole('textbox', { name: 'Round' }), { target: { value: '3' } });
    click('Go');
    expect(board()).toHaveAttribute('data-round', '3');
    // The step's events are told in the game's own words.
    expect(screen.getByTestId('replay-log')).toHaveTextContent('Round 3: your turn');
    const at = step();
    expect(hash()).toBe(expectedHashes[at]);
    expect(hashState(replay({ seed: SEED }, actions.slice(0, at - 1)).state)).not.toBe(hash());

    click('Play');
    act(() => void vi.advanceTimersByTime(60_000));
    expect(step()).toBeGreaterThan(at);
    click('Pause');
    const paused = step();
    act(() => void vi.advanceTimersByTime(60_000));
    expect(step()).toBe(paused);
    expect(hash()).toBe(expectedHashes[paused]);
    click('First');
    expect(hash()).toBe(expectedHashes[0]);
  });

  it('reads a chosen file and says why a tampered one cannot be shown', async () => {
    vi.useRealTimers();
    render(<ReplayPage />);
    const file = toReplayFile(SEED, actions, replay({ seed: SEED }, actions).state);
    const input = screen.getByTestId('replay-file');
    const tampered = new File([JSON.stringify({ ...file, actions: actions.slice(0, -1) })], 'bad.json', { type: 'application/json' });
    fireEvent.change(input, { target: { files: [tampered] } });
    expect(await screen.findByTestId('replay-problem')).toHaveTextContent(/^Final state hash [0-9a-f]{8} differs from the recorded /);
    fireEvent.change(input, { target: { files: [new File([JSON.stringify(file)], 'good.json')] } });
    expect(await screen.findByTestId('replay-board')).toHaveAttribute('data-steps', String(actions.length));
    expect(hash()).toBe(expectedHashes[0]);
  });
});
