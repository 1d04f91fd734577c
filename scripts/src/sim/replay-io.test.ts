import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { playGame } from './simulate.ts';
import { checkReplayFile, checkReplayText, formatReplayCheck, replayFileOf, replayFileText, resolveReplayPath } from './replay-io.ts';

const game = playGame('replay-1', 'greedy', { record: true });

describe('replay files', () => {
  it('verifies a written replay and reports its final hash', () => {
    const check = checkReplayText(replayFileText(game));
    expect(check).toEqual({
      ok: true,
      seed: 'replay-1',
      actions: game.actionCount,
      status: game.finalState.status,
      round: game.finalState.round,
      finalHash: game.finalHash,
    });
    expect(formatReplayCheck('g.json', check)).toContain(`final hash ${game.finalHash}`);
  });

  it('round-trips through the disk', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-replay-'));
    const file = path.join(dir, 'game.json');
    fs.writeFileSync(file, replayFileText(game));
    expect(checkReplayFile(file).ok).toBe(true);
    expect(checkReplayFile(path.join(dir, 'missing.json'))).toMatchObject({ ok: false, message: expect.stringContaining('Cannot read') });
    fs.rmSync(dir, { recursive: true });
  });

  it('fails a tampered replay with the reason', () => {
    const file = replayFileOf(game);
    const badHash = checkReplayText(JSON.stringify({ ...file, finalHash: '00000000' }));
    expect(badHash).toEqual({ ok: false, message: `Final state hash ${game.finalHash} differs from the recorded 00000000` });

    const actions = [...file.actions];
    actions.splice(1, 0, { type: 'move', x: 0, y: 0 });
    const rejected = checkReplayText(JSON.stringify({ ...file, actions }));
    expect(rejected.ok).toBe(false);
    if (!rejected.ok) expect(rejected.message).toMatch(/^Action 1 was rejected on replay: /);

    const otherSeed = checkReplayText(JSON.stringify({ ...file, seed: 'replay-2' }));
    expect(otherSeed.ok).toBe(false);

    expect(checkReplayText('{"format":"other"}')).toEqual({ ok: false, message: 'Not a tower replay file (format must be "tower-replay")' });
    expect(checkReplayText('not json')).toMatchObject({ ok: false, message: expect.stringContaining('The file is not JSON') });
    expect(formatReplayCheck('g.json', badHash)).toBe(`FAILED g.json\n  Final state hash ${game.finalHash} differs from the recorded 00000000\n`);
  });

  it('resolves a relative path against the directory npm was started from', () => {
    expect(resolveReplayPath('game.json', { INIT_CWD: '/home/tester' }, '/repo/scripts')).toBe('/home/tester/game.json');
    expect(resolveReplayPath('game.json', {}, '/repo/scripts')).toBe('/repo/scripts/game.json');
    expect(resolveReplayPath('/tmp/a.json', { INIT_CWD: '/home/tester' })).toBe('/tmp/a.json');
  });
});
