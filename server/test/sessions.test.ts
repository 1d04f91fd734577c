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

  it('answers from the cache alone only what lookup would answer, and never after a change', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const store = createSessionStore(s.db, { sessionDays: 30, now: () => now });
    const user = await createUser(s.deps, 'Family', 2);
    const { token, tokenHash } = await store.create(user.id);
    expect(store.cached(token), 'never looked up yet').toBeUndefined();
    expect(await store.lookup(token)).toEqual({ user: { id: user.id, name: 'Family', level: 2 }, tokenHash, renewed: false });
    expect(store.cached(token)).toEqual(await store.lookup(token));
    expect(store.cached('x'.repeat(43)), 'a token of no session').toBeUndefined();

    store.forgetUser(user.id);
    expect(store.cached(token), 'the account must be read again').toBeUndefined();
    await store.lookup(token);
    store.applyChange(`session:${tokenHash}`);
    expect(store.cached(token), 'another process ended or changed the session').toBeUndefined();
    await store.lookup(token);
    store.setCacheTrusted(false);
    expect(store.cached(token), 'the change listener is down').toBeUndefined();
    store.setCacheTrusted(true);
    await store.lookup(token);

    now += 61 * 60_000;
    expect(store.cached(token), 'a renewal is due: only lookup writes it').toBeUndefined();
    expect((await store.lookup(token))?.renewed).toBe(true);
    expect(store.cached(token)?.renewed).toBe(false);
    await store.end(tokenHash);
    expect(store.cached(token)).toBeUndefined();
  });
});
