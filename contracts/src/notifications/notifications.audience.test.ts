import { describe, expect, it } from 'vitest';
import { mayReceive, receivableKinds } from './notifications.audience.ts';

describe('receivableKinds: the kinds a level can receive (docs/notifications.md, "The kinds")', () => {
  it('a Friend (level 1): their own pictures, servers they follow, downloads, On this day', () => {
    expect(receivableKinds({ name: 'friend', level: 1 })).toEqual(['picture.approved', 'picture.social', 'server.down', 'server.up', 'ytdl.done', 'onthisday']);
  });

  it('Family (level 2): also House, the planning kinds and their webhooks', () => {
    expect(receivableKinds({ name: 'family', level: 2 })).toEqual([
      'house.added',
      'picture.approved',
      'picture.social',
      'server.down',
      'server.up',
      'ytdl.done',
      'onthisday',
      'chore.due',
      'dinner.tonight',
      'webhook.paused',
    ]);
  });

  it('an Admin (level 3): every kind, the approvals included', () => {
    expect(receivableKinds({ name: 'admin', level: 3 })).toEqual([
      'house.added',
      'picture.waiting',
      'picture.approved',
      'picture.social',
      'account.waiting',
      'server.down',
      'server.up',
      'ytdl.done',
      'onthisday',
      'chore.due',
      'dinner.tonight',
      'webhook.paused',
    ]);
  });

  it('nobody signed in and a waiting account receive nothing', () => {
    expect(receivableKinds(null)).toEqual([]);
    expect(receivableKinds({ name: 'new', level: 0 })).toEqual([]);
    expect(mayReceive('account.waiting', { name: 'family', level: 2 })).toBe(false);
  });
});
