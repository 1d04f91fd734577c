import { describe, expect, it } from 'vitest';
import { createSessionStore } from '../src/identity/sessions.ts';
import { createUser, databases, useTestServer } from './helpers.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe.each(databases)('sliding sessions (%s)', (kind) => {
  const s = useTestServer(kind);

  it('renews at most hourly, slides the expiry, and expires after 30 idle days', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const store = createSessionStore(s.db, { sessionDays: 30, now: () => now });
    const user = await createUser(s.deps, 'Owner', 3);
    const { token, tokenHash } = await store.create(user.id);

    now += 30 * 60_000;
    expect((await store.lookup(token))?.renewed).toBe(false);
    now += 31 * 60_000;
    expect((await store.lookup(token))?.renewed).toBe(true);
    const row = await s.db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirstOrThrow();
    expect(row.expires_at.getTime()).toBe(now + 30 * DAY);
    expect((await store.lookup(token))?.renewed).toBe(false);

    now += 29 * DAY;
    expect((await store.lookup(token))?.user.name).toBe('Owner');
    now += 30 * DAY + 1;
    expect(await store.lookup(token)).toBeNull();
    expect(await s.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
  });

  it('sees a level change made elsewhere after forgetUser, and drops ended sessions at once', async () => {
    const store = createSessionStore(s.db, { sessionDays: 30 });
    const user = await createUser(s.deps, 'Friend', 1);
    const { token, tokenHash } = await store.create(user.id);
    expect((await store.lookup(token))?.user.level).toBe(1);
    await s.db.updateTable('users').set({ level: 2 }).execute();
    store.forgetUser(user.id);
    expect((await store.lookup(token))?.user.level).toBe(2);
    await store.end(tokenHash);
    expect(await store.lookup(token)).toBeNull();
  });
});
