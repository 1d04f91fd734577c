import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { Level } from '@site/contracts';
import { createPushSender } from '../../src/areas/notifications/push.send.ts';
import { checkEndpoint } from '../../src/areas/notifications/push.guard.ts';
import { hashToken } from '../../src/identity/sessions.ts';
import { insertPicture } from '../../src/areas/pictures/pictures.repository.ts';
import { pictureRow } from '../pictures/pictures.fixtures.ts';
import { createUser, databases, testConfig, useTestServer, type TestServer } from '../helpers.ts';
import { settled, trpc, usePushService } from './push-helpers.ts';
import type { PushService } from '../../src/testing/push-service.ts';

type Browser = { name: string; userId: number; cookie: string; endpoint: string; keys: { p256dh: string; auth: string } };

async function signIn(s: TestServer, userId: number): Promise<{ cookie: string; hash: string }> {
  const { token } = await s.deps.sessions.create(userId);
  return { cookie: `sid=${token}`, hash: hashToken(token) };
}

/** A member of `level` on a new browser subscribed to the test's push service. */
async function subscribed(s: TestServer, push: PushService, name: string, level: Level): Promise<Browser> {
  const user = await createUser(s.deps, name, level);
  return anotherBrowser(s, push, { name, userId: user.id });
}

async function anotherBrowser(s: TestServer, push: PushService, who: { name: string; userId: number }): Promise<Browser> {
  const { cookie } = await signIn(s, who.userId);
  const sub = push.subscribe();
  const res = await trpc(s.app, 'push.subscribe', cookie, sub);
  expect(res.status, res.message).toBe(200);
  return { ...who, cookie, ...sub };
}

const subscriberOf = (endpoint: string) => endpoint.split('/').pop();
const pushesTo = (push: PushService, b: Browser, from = 0) => push.received.slice(from).filter((r) => r.subscriber === subscriberOf(b.endpoint));

/**
 * The clock moved on past every wait of the deliveries not yet delivered: a lease held (LEASE_SECONDS)
 * runs out, a retry's backoff is over. The worker then takes them again as it would then.
 */
async function timePasses(s: TestServer): Promise<void> {
  await sql`update push_deliveries set next_at = now() - interval '1 second',
      lease_until = case when lease_until is null then null else now() - interval '1 second' end
    where delivered_at is null and failed is null`.execute(s.db);
}

/** Waits until `check` holds of the database (the worker works in its own time). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`still not: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const addMilk = async (s: TestServer, cookie: string, task = 'milk') => {
  const res = await trpc(s.app, 'house.add', cookie, { task, type: 'To Get' });
  expect(res.status, res.message).toBe(200);
};

/** The 88 and 22 characters the probe subscribed with: base64url of 66 bytes and of 16. */
const PROBE_KEYS = { p256dh: 'A'.repeat(88), auth: 'B'.repeat(22) };

describe.each(databases)('push trust: bad keys, taken endpoints, too many browsers (%s)', (kind) => {
  const s = useTestServer(kind, { PUSH_ALLOWED_HOSTS: '127.0.0.1' }, { watchChanges: true });
  const push = usePushService();
  let warn: MockInstance<typeof console.warn>;
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn');
  });
  afterEach(() => warn.mockRestore());

  it('refuses keys that are not a P-256 point and a 16-byte secret, and stores nothing', async () => {
    const fred = await createUser(s.deps, 'fred', 2);
    const { cookie } = await signIn(s, fred.id);
    const good = push.current.subscribe();
    const point = Buffer.from(good.keys.p256dh, 'base64url');
    point[40] = (point[40] ?? 0) ^ 1;
    const compressed = Buffer.concat([Buffer.from([2]), Buffer.from(good.keys.p256dh, 'base64url').subarray(1, 33)]);
    for (const [keys, message] of [
      [PROBE_KEYS, 'The browser sent a push key that is not a P-256 public key (65 bytes, a point on the curve)'],
      [{ ...good.keys, p256dh: point.toString('base64url') }, 'The browser sent a push key that is not a P-256 public key (65 bytes, a point on the curve)'],
      [{ ...good.keys, p256dh: `${compressed.toString('base64url')}${'A'.repeat(44)}` }, 'The browser sent a push key that is not a P-256 public key (65 bytes, a point on the curve)'],
      [{ ...good.keys, auth: 'B'.repeat(16) }, 'The browser sent a push secret that is not 16 bytes'],
      [{ ...good.keys, auth: 'B'.repeat(32) }, 'The browser sent a push secret that is not 16 bytes'],
    ] as const) {
      const res = await trpc(s.app, 'push.subscribe', cookie, { endpoint: good.endpoint, keys });
      expect([res.status, res.message]).toEqual([400, message]);
    }
    expect(await s.db.selectFrom('push_subscriptions').select('id').execute()).toEqual([]);
    expect((await trpc(s.app, 'push.subscribe', cookie, good)).status).toBe(200);
  });

  it('one device with bad keys (an old row) costs only its own delivery: every other device gets each push once, over two lease periods and more', async () => {
    const anna = await subscribed(s, push.current, 'anna', 2);
    const ben = await subscribed(s, push.current, 'ben', 2);
    const fred = await subscribed(s, push.current, 'fred', 2);
    const dan = await subscribed(s, push.current, 'dan', 2);
    // Fred's second browser, subscribed before the keys were checked: the row as it was stored then.
    const { hash } = await signIn(s, fred.userId);
    const bad = await s.db
      .insertInto('push_subscriptions')
      .values({ user_id: fred.userId, session_hash: hash, endpoint: `${push.current.origin}/push/0badbad0`, ...PROBE_KEYS })
      .returning('id')
      .executeTakeFirstOrThrow();
    const from = push.current.received.length;
    await addMilk(s, dan.cookie);
    await settled(s.db);
    const badDelivery = () => s.db.selectFrom('push_deliveries').select(['attempts', 'failed', 'lease_until']).where('subscription_id', '=', bad.id).executeTakeFirstOrThrow();
    expect(await badDelivery()).toMatchObject({ attempts: 1, failed: null, lease_until: null });
    // Two lease periods and more pass; each time the bad delivery is tried again, alone.
    for (const tries of [2, 3]) {
      await timePasses(s);
      await until(`try ${tries}`, async () => {
        const d = await badDelivery();
        return d.attempts === tries && d.lease_until === null;
      });
      await settled(s.db);
    }
    for (const b of [anna, ben, fred]) {
      expect([b.name, pushesTo(push.current, b, from).map((r) => [r.status, r.message.title])]).toEqual([b.name, [[201, 'dan added milk']]]);
    }
    expect(push.current.received.length - from).toBe(3);
    expect(await s.db.selectFrom('push_deliveries').select('id').where('delivered_at', 'is not', null).execute()).toHaveLength(3);
    const logged = warn.mock.calls.map((c) => String(c[0]));
    expect(logged.filter((line) => line.includes(`to subscription ${bad.id} failed`))).toHaveLength(3);
    expect(logged.find((line) => line.includes(`to subscription ${bad.id} failed (try 2 of 16): the send threw:`))).toBeDefined();
    expect(logged.join('\n')).not.toContain('0badbad0');
    expect(logged.join('\n')).not.toContain(PROBE_KEYS.auth);
    // After the 16th try it is given up, recorded and logged.
    await s.db.updateTable('push_deliveries').set({ attempts: 15 }).where('subscription_id', '=', bad.id).execute();
    await timePasses(s);
    await until('given up', async () => (await badDelivery()).failed !== null);
    expect((await badDelivery()).failed).toMatch(/^no answer after 16 tries \(last 0: the send threw: /);
    expect(warn.mock.calls.map((c) => String(c[0])).filter((line) => line.includes(`to subscription ${bad.id} given up: no answer after 16 tries`))).toHaveLength(1);
    expect(push.current.received.length - from).toBe(3);
  });

  it('refuses an endpoint another account holds, changing nothing; after that account signs out the browser can be subscribed again', async () => {
    const anna = await subscribed(s, push.current, 'anna', 2);
    const dan = await subscribed(s, push.current, 'dan', 2);
    const fred = await createUser(s.deps, 'fred', 2);
    const { cookie: fredCookie } = await signIn(s, fred.id);
    const fredKeys = push.current.subscribe().keys;
    const taken = await trpc(s.app, 'push.subscribe', fredCookie, { endpoint: anna.endpoint, keys: fredKeys });
    expect([taken.status, taken.message]).toEqual([400, 'This push address belongs to another account: sign that account out on this browser first']);
    const row = await s.db.selectFrom('push_subscriptions').select(['user_id', 'p256dh', 'auth']).where('endpoint', '=', anna.endpoint).executeTakeFirstOrThrow();
    expect(row).toEqual({ user_id: anna.userId, ...anna.keys });
    const from = push.current.received.length;
    await addMilk(s, dan.cookie);
    await settled(s.db);
    expect(pushesTo(push.current, anna, from).map((r) => r.status)).toEqual([201]);
    // Anna signs out on that browser: her subscription goes with her session; Fred may now subscribe it.
    expect((await trpc(s.app, 'auth.logout', anna.cookie)).status).toBe(200);
    const again = await trpc(s.app, 'push.subscribe', fredCookie, { endpoint: anna.endpoint, keys: anna.keys });
    expect(again.status, again.message).toBe(200);
    expect(await s.db.selectFrom('push_subscriptions').select('user_id').where('endpoint', '=', anna.endpoint).execute()).toEqual([{ user_id: fred.id }]);
  });

  it('keeps five browsers per account: a sixth and a seventh replace the oldest', async () => {
    const anna = await subscribed(s, push.current, 'anna', 2);
    const browsers = [anna];
    for (let i = 0; i < 6; i++) browsers.push(await anotherBrowser(s, push.current, { name: 'anna', userId: anna.userId }));
    const kept = await s.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', anna.userId).orderBy('id').execute();
    expect(kept.map((r) => r.endpoint)).toEqual(browsers.slice(2).map((b) => b.endpoint));
    // The same browser subscribing again is not a new one.
    expect((await trpc(s.app, 'push.subscribe', browsers[6]?.cookie ?? '', { endpoint: browsers[6]?.endpoint, keys: browsers[6]?.keys })).status).toBe(200);
    expect(await s.db.selectFrom('push_subscriptions').select('id').where('user_id', '=', anna.userId).execute()).toHaveLength(5);
  });
});

describe.each(databases)('push trust: hearts and comments are told once in a while, summed (%s)', (kind) => {
  const s = useTestServer(kind, { PUSH_ALLOWED_HOSTS: '127.0.0.1' }, { watchChanges: true });
  const push = usePushService();

  const inboxOf = (userId: number) =>
    s.db
      .selectFrom('notification_inbox')
      .innerJoin('notification_events', 'notification_events.id', 'notification_inbox.event_id')
      .select(['notification_events.title', 'notification_inbox.read_at'])
      .where('notification_inbox.user_id', '=', userId)
      .orderBy('notification_inbox.id')
      .execute();
  const lateBy = (minutes: number) => sql`update notification_events set created_at = created_at - make_interval(mins => ${minutes})`.execute(s.db);

  it('a heart given again within 10 minutes is not counted; more within 30 minutes are summed in the inbox, not pushed; later, told again', async () => {
    const anna = await subscribed(s, push.current, 'anna', 1);
    const ben = await subscribed(s, push.current, 'ben', 1);
    const carl = await subscribed(s, push.current, 'carl', 1);
    const pictures = [];
    for (const day of [1, 2, 3]) pictures.push(await s.db.transaction().execute((trx) => insertPicture(trx, pictureRow({ id: anna.userId }, `beach ${day}`, [2020, 7, day], 'approved'))));
    const [first, second, third] = pictures as [(typeof pictures)[number], (typeof pictures)[number], (typeof pictures)[number]];
    const from = push.current.received.length;
    const heart = async (who: Browser, id: number, on: boolean) => {
      const res = await trpc(s.app, 'pictures.heart', who.cookie, { id, on });
      expect(res.status, res.message).toBe(200);
    };
    for (const on of [true, false, true, false, true]) await heart(ben, first.id, on);
    await settled(s.db);
    const titles = () => pushesTo(push.current, anna, from).map((r) => r.message.title);
    expect(titles()).toEqual(['ben gave your picture a heart']);
    expect(await inboxOf(anna.userId)).toEqual([{ title: 'ben gave your picture a heart', read_at: null }]);
    // Anna reads it; Ben goes on: two more hearts and three comments are summed into it, not pushed.
    await s.db.updateTable('notification_inbox').set({ read_at: new Date() }).where('user_id', '=', anna.userId).execute();
    await heart(ben, second.id, true);
    await heart(ben, third.id, true);
    for (const text of ['lovely', 'the sea!', 'again']) expect((await trpc(s.app, 'pictures.comment', ben.cookie, { id: first.id, text })).status).toBe(200);
    await settled(s.db);
    expect(titles()).toEqual(['ben gave your picture a heart']);
    expect(await inboxOf(anna.userId)).toEqual([{ title: 'ben hearted and commented 6 times on your pictures', read_at: null }]);
    // Another member is told on their own.
    await heart(carl, first.id, true);
    await settled(s.db);
    expect(titles()).toEqual(['ben gave your picture a heart', 'carl gave your picture a heart']);
    // Eleven minutes on: a heart Ben takes back and gives again counts once more, still summed.
    await lateBy(11);
    await heart(ben, first.id, false);
    await heart(ben, first.id, true);
    await settled(s.db);
    expect(titles()).toHaveLength(2);
    expect((await inboxOf(anna.userId))[0]?.title).toBe('ben hearted and commented 7 times on your pictures');
    // Thirty-one minutes on: Ben's next comment is told again, as a new notification.
    await lateBy(31);
    expect((await trpc(s.app, 'pictures.comment', ben.cookie, { id: second.id, text: 'and this one' })).status).toBe(200);
    await settled(s.db);
    expect(titles()).toEqual(['ben gave your picture a heart', 'carl gave your picture a heart', 'ben commented on your picture']);
    expect((await inboxOf(anna.userId)).map((r) => r.title)).toEqual([
      'ben hearted and commented 7 times on your pictures',
      'carl gave your picture a heart',
      'ben commented on your picture',
    ]);
  });

  it('300 heart toggles and 100 comments from one member make one push', async () => {
    const anna = await subscribed(s, push.current, 'anna', 1);
    const ben = await subscribed(s, push.current, 'ben', 1);
    const picture = await s.db.transaction().execute((trx) => insertPicture(trx, pictureRow({ id: anna.userId }, 'beach', [2020, 7, 1], 'approved')));
    const from = push.current.received.length;
    for (let i = 0; i < 300; i++) expect((await trpc(s.app, 'pictures.heart', ben.cookie, { id: picture.id, on: i % 2 === 0 })).status).toBe(200);
    for (let i = 0; i < 100; i++) expect((await trpc(s.app, 'pictures.comment', ben.cookie, { id: picture.id, text: `comment ${i}` })).status).toBe(200);
    await settled(s.db);
    expect(pushesTo(push.current, anna, from)).toHaveLength(1);
    expect(await inboxOf(anna.userId)).toEqual([{ title: 'ben hearted and commented 101 times on your pictures', read_at: null }]);
  });
});

describe.each(databases)('push trust: a slow device holds up only itself (%s)', (kind) => {
  const s = useTestServer(kind, { PUSH_ALLOWED_HOSTS: '127.0.0.1' }, { watchChanges: true });
  const push = usePushService();

  it('five browsers of one member that trickle or never answer do not hold back another member\'s pushes nor the inbox', async () => {
    const anna = await subscribed(s, push.current, 'anna', 2);
    const dan = await subscribed(s, push.current, 'dan', 2);
    const fred = await subscribed(s, push.current, 'fred', 2);
    const slow = [fred];
    for (let i = 0; i < 4; i++) slow.push(await anotherBrowser(s, push.current, { name: 'fred', userId: fred.userId }));
    push.current.answer(fred.endpoint, 'trickle', 'trickle', 'trickle');
    for (const b of slow.slice(1)) push.current.answer(b.endpoint, 'hang', 'hang', 'hang');
    const from = push.current.received.length;
    await addMilk(s, dan.cookie, 'milk');
    await push.current.waitFor(from + 6);
    // Each of Fred's devices has one request open: his next pushes wait for it, Anna's do not.
    await addMilk(s, dan.cookie, 'bread');
    await push.current.waitFor(from + 7);
    await addMilk(s, dan.cookie, 'eggs');
    await push.current.waitFor(from + 8);
    expect(pushesTo(push.current, anna, from).map((r) => [r.status, r.message.title])).toEqual([
      [201, 'dan added milk'],
      [201, 'dan added bread'],
      [201, 'dan added eggs'],
    ]);
    // Recorded as delivered while Fred's requests are still open, and in the inbox.
    await until('anna\'s three delivered', async () => {
      const rows = await s.db.selectFrom('push_deliveries as d').innerJoin('push_subscriptions as p', 'p.id', 'd.subscription_id').select('d.id').where('p.user_id', '=', anna.userId).where('d.delivered_at', 'is not', null).execute();
      return rows.length === 3;
    });
    const fredsOpen = await s.db.selectFrom('push_deliveries as d').innerJoin('push_subscriptions as p', 'p.id', 'd.subscription_id').select('d.id').where('p.user_id', '=', fred.userId).where('d.lease_until', '>', sql<Date>`now()`).execute();
    expect(fredsOpen).toHaveLength(5);
    expect(slow.map((b) => pushesTo(push.current, b, from).map((r) => [r.status, r.message.title]))).toEqual([
      [['trickle', 'dan added milk']],
      ...slow.slice(1).map(() => [['hang', 'dan added milk']]),
    ]);
    expect(await s.db.selectFrom('notification_inbox').select('id').where('user_id', '=', anna.userId).execute()).toHaveLength(3);
  });
});

describe('push trust: the deadline over a whole request, and PUSH_ALLOWED_HOSTS ports', () => {
  const push = usePushService();

  it('a push service that answers a byte at a time, or not at all, gets no more than the deadline', async () => {
    const sender = createPushSender(testConfig({ PUSH_ALLOWED_HOSTS: '127.0.0.1' }), { deadlineMs: 300 });
    const keys = { publicKey: '', privateKey: '' };
    try {
      const webpush = await import('web-push');
      Object.assign(keys, webpush.default.generateVAPIDKeys());
      const trickling = push.current.subscribe();
      const silent = push.current.subscribe();
      const fine = push.current.subscribe();
      push.current.answer(trickling.endpoint, 'trickle');
      push.current.answer(silent.endpoint, 'hang');
      const answers = await Promise.all([trickling, silent, fine].map((t) => sender.send({ endpoint: t.endpoint, ...t.keys }, '{}', 1, keys)));
      expect(answers).toEqual([
        { status: 0, retryAfter: null, problem: 'no full answer within 300 ms' },
        { status: 0, retryAfter: null, problem: 'no full answer within 300 ms' },
        { status: 201, retryAfter: null },
      ]);
    } finally {
      sender.close();
    }
  });

  it('a host:port entry allows that port only; a host entry every port; private addresses in every IPv6 form are refused', async () => {
    const port = new URL(push.current.origin).port;
    const withPort = testConfig({ PUSH_ALLOWED_HOSTS: `127.0.0.1:${port}` });
    expect((await checkEndpoint(withPort, `https://127.0.0.1:${port}/push/a`)).href).toBe(`https://127.0.0.1:${port}/push/a`);
    await expect(checkEndpoint(withPort, `https://127.0.0.1:${Number(port) + 1}/push/a`)).rejects.toThrow('Push addresses on this network are not allowed');
    await expect(checkEndpoint(withPort, 'https://127.0.0.1/push/a')).rejects.toThrow('Push addresses on this network are not allowed');
    const hostOnly = testConfig({ PUSH_ALLOWED_HOSTS: '127.0.0.1' });
    expect((await checkEndpoint(hostOnly, 'https://127.0.0.1:8443/push/a')).port).toBe('8443');
    const v6 = testConfig({ PUSH_ALLOWED_HOSTS: '[::1]:8443' });
    expect((await checkEndpoint(v6, 'https://[::1]:8443/push/a')).hostname).toBe('[::1]');
    await expect(checkEndpoint(v6, 'https://[::1]/push/a')).rejects.toThrow('Push addresses on this network are not allowed');
    const none = testConfig({});
    for (const host of ['[::7f00:1]', '[::127.0.0.1]', '[::ffff:7f00:1]', '[::ffff:127.0.0.1]', '[::ffff:0:7f00:1]', '[::ffff:0:a00:1]', '[::a9fe:a9fe]', '[64:ff9b::7f00:1]', '[64:ff9b:1::c0a8:1]', '[2002:7f00:1::]']) {
      await expect(checkEndpoint(none, `https://${host}/push/a`), host).rejects.toThrow('Push addresses on this network are not allowed');
    }
  });
});
