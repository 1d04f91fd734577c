import { describe, expect, it } from 'vitest';
import { createGame, legalActions, replay, toReplayFile, verifyReplayFile } from '../src/index.ts';
import type { Action } from '../src/index.ts';

function playFirstLegal(seed: string, count: number): Action[] {
  const actions: Action[] = [];
  let state = createGame({ seed });
  for (let i = 0; i < count && state.status === 'playing'; i++) {
    const options = legalActions(state);
    const action = options[i % options.length];
    if (!action) break;
    actions.push(action);
    state = replay(state, [action]).state;
  }
  return actions;
}

describe('replay files', () => {
  it('round-trip through JSON and verify', () => {
    const actions = playFirstLegal('file-1', 40);
    const { state } = replay({ seed: 'file-1' }, actions);
    const file = JSON.parse(JSON.stringify(toReplayFile('file-1', actions, state)));
    const verdict = verifyReplayFile(file);
    expect(verdict.ok).toBe(true);
  });

  it('catch a tampered log', () => {
    const actions = playFirstLegal('file-2', 30);
    const { state } = replay({ seed: 'file-2' }, actions);
    const file = toReplayFile('file-2', actions.slice(0, -1), state);
    const verdict = verifyReplayFile(file);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.message).toMatch(/hash/);
  });

  it('explain what is wrong with a file that is not a replay', () => {
    expect(verifyReplayFile([])).toEqual({ ok: false, message: 'A replay file is a JSON object' });
    expect(verifyReplayFile({ format: 'x' })).toMatchObject({ ok: false, message: expect.stringMatching(/format/) });
    expect(verifyReplayFile({ format: 'tower-replay', version: 1, seed: 's', actions: 'no', finalHash: 'x' })).toEqual({
      ok: false,
      message: 'The replay has no action list',
    });
  });
});
