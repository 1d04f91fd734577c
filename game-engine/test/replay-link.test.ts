import { describe, expect, it } from 'vitest';
import { parseReplayFragment, replayFragment } from '../src/index.ts';

describe('replay links', () => {
  it('carries the seed, the actions and the names through the fragment unchanged', () => {
    const game = { seed: 'Ünïcode seed & 42', actions: [{ type: 'move', x: 3, y: 2 }, { type: 'interact', targetId: 'e1', name: 'Zoë' }, { type: 'pass' }], survivorNames: ['Ada', 'Bo'] };
    const fragment = replayFragment(game);
    expect(fragment).toMatch(/^#seed=[^&]+&actions=[A-Za-z0-9_-]+&names=Ada%2CBo$/);
    expect(parseReplayFragment(fragment)).toEqual(game);
    expect(parseReplayFragment(replayFragment({ seed: '42', actions: [] }))).toEqual({ seed: '42', actions: [] });
  });

  it('says what is wrong with a damaged link', () => {
    expect(parseReplayFragment('#actions=W10')).toEqual({ error: 'The link has no seed' });
    expect(parseReplayFragment('#seed=1')).toEqual({ error: 'The link has no actions' });
    expect(parseReplayFragment('#seed=1&actions=%%%')).toEqual({ error: 'The actions in the link are damaged (not base64url JSON)' });
    expect(parseReplayFragment('#seed=1&actions=e30')).toEqual({ error: 'The actions in the link are not a list' });
  });
});
