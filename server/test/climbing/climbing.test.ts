import { describe, expect, it } from 'vitest';
import { CLIMBING_GUEST_MAX, climbingMessages } from '@site/contracts';
import { startOfMonth } from '../../src/areas/climbing/climbing.service.ts';
import { callerFor, cookieFor, createUser, databases, postJson, useTestServer } from '../helpers.ts';

describe.each(databases)('climbing passes (%s)', (kind) => {
  const s = useTestServer(kind);

  it('records who added each pass and when, newest first, and counts only this month', async () => {
    const amy = await createUser(s.deps, 'amy', 2);
    const asAmy = callerFor(s.deps, amy);
    await s.db
      .insertInto('climbing_passes')
      .values({ guest: 'Old friend', added_by: amy.id, created_at: new Date(startOfMonth().getTime() - 1000) })
      .execute();
    const before = Date.now();
    await asAmy.climbing.add({ guest: 'Sam' });
    await asAmy.climbing.add({ guest: 'Kim' });
    const list = await asAmy.climbing.list();
    expect(list.guests.map((g) => [g.guest, g.addedBy])).toEqual([
      ['Kim', 'amy'],
      ['Sam', 'amy'],
      ['Old friend', 'amy'],
    ]);
    expect(Date.parse(list.guests[0]?.addedAt ?? '')).toBeGreaterThanOrEqual(before - 5000);
    expect([list.usedThisMonth, list.allowance]).toEqual([2, null]);
  });

  it('lets the member who added a pass, or an admin, remove it; nobody else', async () => {
    const amy = callerFor(s.deps, await createUser(s.deps, 'amy', 2));
    const bob = callerFor(s.deps, await createUser(s.deps, 'bob', 2));
    const boss = callerFor(s.deps, await createUser(s.deps, 'boss', 3));
    const one = await amy.climbing.add({ guest: 'Sam' });
    const two = await amy.climbing.add({ guest: 'Kim' });
    expect((await bob.climbing.list()).guests.map((g) => g.canRemove)).toEqual([false, false]);
    await expect(bob.climbing.remove({ id: one.id })).rejects.toMatchObject({ code: 'FORBIDDEN', message: climbingMessages.notYours });
    await amy.climbing.remove({ id: one.id });
    await boss.climbing.remove({ id: two.id });
    await expect(amy.climbing.remove({ id: two.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: climbingMessages.notFound });
    expect((await amy.climbing.list()).guests).toEqual([]);
  });

  it('refuses an empty, over-long or control-character guest, and levels below 2', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const cases: [unknown, string][] = [
      [{ guest: ' ' }, 'Guest may not be empty'],
      [{ guest: 'x'.repeat(CLIMBING_GUEST_MAX + 1) }, `Guest may be at most ${CLIMBING_GUEST_MAX} characters`],
      [{ guest: 'a\u0007' }, 'Guest may not contain control characters'],
    ];
    for (const [body, message] of cases) {
      const res = await postJson(s.app, '/api/climbing/add', body, cookie);
      expect([res.statusCode, res.json()]).toEqual([400, { message }]);
    }
    expect((await postJson(s.app, '/api/climbing/add', { guest: 'x' }, await cookieFor(s.deps, 1))).statusCode).toBe(403);
    expect((await postJson(s.app, '/api/climbing/get', undefined, cookie)).json()).toEqual({ guests: [] });
  });
});

describe.each(databases)('climbing passes with a monthly allowance (%s)', (kind) => {
  const s = useTestServer(kind, { CLIMBING_PASSES_PER_MONTH: '2' });

  it('refuses the pass after the allowance with a clear message, last month not counting', async () => {
    const amy = await createUser(s.deps, 'amy', 2);
    const asAmy = callerFor(s.deps, amy);
    await s.db.insertInto('climbing_passes').values({ guest: 'Old', added_by: amy.id, created_at: new Date(startOfMonth().getTime() - 1) }).execute();
    const results = await Promise.allSettled(['A', 'B', 'C'].map((guest) => asAmy.climbing.add({ guest })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.reason).toMatchObject({ code: 'CONFLICT', message: climbingMessages.allowanceUsed(2) });
    expect(await asAmy.climbing.list()).toMatchObject({ usedThisMonth: 2, allowance: 2 });
  });
});
