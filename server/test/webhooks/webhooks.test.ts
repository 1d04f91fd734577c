import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Level } from '@site/contracts';
import { createWebhookSender } from '../../src/areas/webhooks/webhooks.send.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing/webhook-receiver.ts';
import type { Database } from '../../src/db/database.ts';
import { createUser, databases, testConfig, useTestServer, type TestServer } from '../helpers.ts';
import { query, trpc } from '../notifications/push-helpers.ts';

type Member = { id: number; cookie: string };

async function member(s: TestServer, name: string, level: Level): Promise<Member> {
  const user = await createUser(s.deps, name, level);
  return { id: user.id, cookie: `sid=${(await s.deps.sessions.create(user.id)).token}` };
}

type Created = { id: number; secret: string; url: string; events: string[]; status: string };

/**
 * Waits until the webhooks' worker has nothing left to do now: every event of the last day with a
 * webhook made before it taken, no delivery due or held.
 */
async function settled(db: Database, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await sql<{ waiting: number; busy: number }>`
      select (select count(*)::int from notification_events e where e.joined_to is null
                and exists (select 1 from webhooks w where w.paused_at is null and w.created_at <= e.created_at)
                and not exists (select 1 from webhook_events_seen s where s.event_id = e.id)) as waiting,
             (select count(*)::int from webhook_deliveries where delivered_at is null and failed is null
                and (next_at <= now() or lease_until > now())) as busy`.execute(db);
    const r = rows[0];
    if (r && r.waiting === 0 && r.busy === 0) return;
    if (Date.now() > until) throw new Error(`webhooks not settled: ${JSON.stringify(r)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(databases)('webhooks (%s)', (kind) => {
  const s = useTestServer(kind, { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => receiver?.close());

  const addBread = async (cookie: string, task = 'bread') => {
    const res = await trpc(s.app, 'house.add', cookie, { task, type: 'To Get' });
    expect(res.status, res.message).toBe(200);
  };
  const create = async (m: Member, events: string[], path = '/hook'): Promise<Created> => {
    const res = await trpc(s.app, 'webhooks.create', m.cookie, { url: `${receiver.url}${path}`, events });
    expect(res.status, res.message).toBe(200);
    return res.data as Created;
  };
  /** The backoff's wait passes at once: the retry is made due as if the time had passed. */
  const dueNow = () => s.db.updateTable('webhook_deliveries').set({ next_at: sql<Date>`now()` }).where('delivered_at', 'is', null).where('failed', 'is', null).execute();

  it('signs each delivery as Standard Webhooks: the standardwebhooks verifier accepts it, with { type, timestamp, data }', async () => {
    const ann = await member(s, 'ann', 2);
    const ben = await member(s, 'ben', 2);
    const hook = await create(ann, ['house.added']);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect({ ...hook, secret: '' }).toMatchObject({ url: `${receiver.url}/hook`, events: ['house.added'], status: 'active' });
    // The secret is shown once: the list never carries it.
    expect(JSON.stringify(await query(s.app, 'webhooks.list', ann.cookie))).not.toContain(hook.secret.slice(6, 20));
    const from = receiver.received.length;
    const started = Date.now();
    await addBread(ben.cookie);
    await receiver.waitFor(from + 1);
    // The first try within 10 s of the change (here, about a second: the worker's poll).
    expect(Date.now() - started).toBeLessThan(10_000);
    const got = receiver.received[from];
    if (!got) throw new Error('nothing received');
    expect(got.path).toBe('/hook');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{22}$/);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const verified = new Webhook(hook.secret).verify(got.body, got.headers) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(verified).toEqual({ type: 'house.added', timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), data: { id: expect.any(Number), title: 'ben added bread', body: 'House To Get', url: '/house' } });
    // Another key, or a changed body, is refused by the same verifier.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(got.body, got.headers)).toThrow();
    expect(() => new Webhook(hook.secret).verify(got.body.replace('bread', 'cake'), got.headers)).toThrow();
    await settled(s.db);
    const log = (await query(s.app, 'webhooks.deliveries', ann.cookie, { id: hook.id })) as { status: number; ok: boolean; messageId: string; type: string; attempt: number }[];
    expect(log.map((a) => [a.status, a.ok, a.messageId, a.type, a.attempt])).toEqual([[200, true, got.headers['webhook-id'], 'house.added', 1]]);
    // The adder's own hook is not told of their own change (the notifications' rule).
    expect(receiver.received.length).toBe(from + 1);
  });

  it('tries again after a 500 with the same webhook-id, and records one success', async () => {
    const ann = await member(s, 'ann', 2);
    const ben = await member(s, 'ben', 2);
    const hook = await create(ann, ['house.added']);
    receiver.answer(500, 'redirect');
    const from = receiver.received.length;
    await addBread(ben.cookie);
    await receiver.waitFor(from + 1);
    await settled(s.db);
    const waiting = await s.db.selectFrom('webhook_deliveries').select(['attempts', 'next_at', 'delivered_at']).executeTakeFirstOrThrow();
    expect(waiting.attempts).toBe(1);
    expect(waiting.delivered_at).toBeNull();
    // The first wait is seconds long (5 s).
    expect(new Date(waiting.next_at).getTime() - Date.now()).toBeGreaterThan(2000);
    await dueNow();
    await receiver.waitFor(from + 2);
    await settled(s.db);
    const tries = receiver.received.slice(from);
    expect(tries.map((t) => t.answered)).toEqual([500, 'redirect']);
    expect(tries[1]?.headers['webhook-id']).toBe(tries[0]?.headers['webhook-id']);
    // Each try is signed again with its own timestamp; both verify.
    for (const t of tries) new Webhook(hook.secret).verify(t.body, t.headers);
    // A 3xx is an answer, not followed, and not tried again.
    const delivery = await s.db.selectFrom('webhook_deliveries').select(['attempts', 'delivered_at', 'failed']).executeTakeFirstOrThrow();
    expect(delivery).toEqual({ attempts: 2, delivered_at: null, failed: 'answered 302 (redirects are not followed)' });
    expect(receiver.received.filter((r) => r.path === '/elsewhere')).toEqual([]);

    // The next event: a 500 then a 200, one success.
    receiver.answer(503);
    await addBread(ben.cookie, 'milk');
    await receiver.waitFor(from + 3);
    await settled(s.db);
    await dueNow();
    await receiver.waitFor(from + 4);
    await settled(s.db);
    await dueNow();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received.length).toBe(from + 4);
    const log = (await query(s.app, 'webhooks.deliveries', ann.cookie, { id: hook.id })) as { status: number; attempt: number }[];
    expect(log.map((a) => [a.status, a.attempt])).toEqual([[200, 2], [503, 1], [302, 2], [500, 1]]);
    const list = (await query(s.app, 'webhooks.list', ann.cookie)) as { status: string; lastAttempt: { status: number; ok: boolean } }[];
    expect(list.map((h) => [h.status, h.lastAttempt.status, h.lastAttempt.ok])).toEqual([['active', 200, true]]);
  });

  it('a friend\'s hook never carries House: Friends cannot make one, and a member lowered to Friend gets nothing more, a retry due included', async () => {
    const friend = await member(s, 'friend', 1);
    const refused = await trpc(s.app, 'webhooks.create', friend.cookie, { url: `${receiver.url}/f`, events: ['server.down'] });
    expect(refused.status).toBe(403);
    const ann = await member(s, 'ann', 2);
    const ben = await member(s, 'ben', 2);
    const kept = await member(s, 'kept', 2);
    await create(ann, ['house.added'], '/lowered');
    await create(kept, ['house.added'], '/kept');
    receiver.answer(500);
    const from = receiver.received.length;
    await addBread(ben.cookie);
    await receiver.waitFor(from + 2);
    await settled(s.db);
    const first = receiver.received.slice(from).map((r) => [r.path, r.answered]).sort();
    // Ann's answered 500 or Kept's did: whichever came first; make Ann's the one that waits.
    const annWaits = first.some(([path, answered]) => path === '/lowered' && answered === 500);
    await s.db.updateTable('users').set({ level: 1 }).where('id', '=', ann.id).execute();
    await dueNow();
    await addBread(ben.cookie, 'milk');
    await settled(s.db);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const after = receiver.received.slice(from + 2).map((r) => r.path);
    expect(after.filter((p) => p === '/lowered')).toEqual([]);
    expect(after.filter((p) => p === '/kept').length).toBe(annWaits ? 1 : 2);
    if (annWaits) {
      const dropped = await s.db.selectFrom('webhook_deliveries as d').innerJoin('webhooks as w', 'w.id', 'd.webhook_id').select('d.failed').where('w.user_id', '=', ann.id).execute();
      expect(dropped).toEqual([{ failed: 'no longer for its member' }]);
    }
    // A kind the member's level does not receive is refused at creation.
    const noAdmin = await trpc(s.app, 'webhooks.create', kept.cookie, { url: `${receiver.url}/x`, events: ['account.waiting'] });
    expect([noAdmin.status, noAdmin.message]).toEqual([400, 'Your level does not receive this kind of event: An account waits for approval']);
  });

  it('refuses at creation a host outside WEBHOOK_ALLOWED_HOSTS, and other bad addresses, with a clear message', async () => {
    const ann = await member(s, 'ann', 2);
    for (const [url, message] of [
      ['http://10.0.0.5/hook', '10.0.0.5 is not a host webhooks may be sent to: the site\'s owner lists the allowed ones in WEBHOOK_ALLOWED_HOSTS'],
      ['https://example.org:8443/hook', 'example.org:8443 is not a host webhooks may be sent to: the site\'s owner lists the allowed ones in WEBHOOK_ALLOWED_HOSTS'],
      ['http://[::1]/hook', '[::1] is not a host webhooks may be sent to: the site\'s owner lists the allowed ones in WEBHOOK_ALLOWED_HOSTS'],
      ['ftp://127.0.0.1/hook', 'Webhook addresses start with http:// or https://'],
      ['not a link', 'The webhook address is not a valid http(s) link'],
      ['http://me:pw@127.0.0.1/hook', 'A webhook address may not carry a user name or password'],
    ] as const) {
      const res = await trpc(s.app, 'webhooks.create', ann.cookie, { url, events: ['house.added'] });
      expect([url, res.status, res.message]).toEqual([url, 400, message]);
    }
    const none = await trpc(s.app, 'webhooks.create', ann.cookie, { url: `${receiver.url}/x`, events: [] });
    expect([none.status, none.message]).toEqual([400, 'events: Choose at least one kind of event']);
    expect(await s.db.selectFrom('webhooks').select('id').execute()).toEqual([]);
  });

  it('sends a test now and logs it; updates, pauses and resumes, deletes; another member sees none of it', async () => {
    const ann = await member(s, 'ann', 2);
    const other = await member(s, 'other', 3);
    const hook = await create(ann, ['house.added']);
    const from = receiver.received.length;
    const tested = await trpc(s.app, 'webhooks.test', ann.cookie, { id: hook.id });
    expect(tested.data).toMatchObject({ status: 200, ok: true, type: 'webhook.test', attempt: 1, problem: null });
    const got = receiver.received[from];
    if (!got) throw new Error('nothing received');
    expect(new Webhook(hook.secret).verify(got.body, got.headers)).toMatchObject({ type: 'webhook.test', data: { webhookId: hook.id, member: 'ann' } });
    for (const path of ['webhooks.test', 'webhooks.delete', 'webhooks.update']) {
      const res = await trpc(s.app, path, other.cookie, { id: hook.id });
      expect([path, res.status, res.message]).toEqual([path, 404, 'No such webhook']);
    }
    expect(await query(s.app, 'webhooks.list', other.cookie)).toEqual([]);
    const updated = await trpc(s.app, 'webhooks.update', ann.cookie, { id: hook.id, events: ['house.added', 'server.down'], active: false });
    expect(updated.data).toMatchObject({ events: ['house.added', 'server.down'], status: 'paused' });
    const resumed = await trpc(s.app, 'webhooks.update', ann.cookie, { id: hook.id, active: true });
    expect(resumed.data).toMatchObject({ status: 'active' });
    expect((await trpc(s.app, 'webhooks.update', ann.cookie, { id: hook.id, url: 'http://10.9.9.9/' })).status).toBe(400);
    expect((await trpc(s.app, 'webhooks.delete', ann.cookie, { id: hook.id })).status).toBe(200);
    expect(await query(s.app, 'webhooks.list', ann.cookie)).toEqual([]);
    expect(await s.db.selectFrom('webhook_attempts').select('id').execute()).toEqual([]);
  });

  it('pauses a hook failing for a day and tells its member', async () => {
    const ann = await member(s, 'ann', 2);
    const ben = await member(s, 'ben', 2);
    const hook = await create(ann, ['house.added']);
    await s.db.updateTable('webhooks').set({ failing_since: sql<Date>`now() - interval '25 hours'` }).execute();
    receiver.answer(500);
    const from = receiver.received.length;
    await addBread(ben.cookie);
    await receiver.waitFor(from + 1);
    await settled(s.db);
    const list = (await query(s.app, 'webhooks.list', ann.cookie)) as { status: string }[];
    expect(list.map((h) => h.status)).toEqual(['paused']);
    expect(await s.db.selectFrom('webhook_deliveries').select('failed').execute()).toEqual([{ failed: 'the webhook was paused' }]);
    const until = Date.now() + 10_000;
    let inbox: { kind: string; title: string }[] = [];
    while (Date.now() < until && inbox.length === 0) {
      inbox = ((await query(s.app, 'notifications.list', ann.cookie)) as { items: { kind: string; title: string }[] }).items.filter((n) => n.kind === 'webhook.paused');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(inbox.map((n) => [n.kind, n.title])).toEqual([['webhook.paused', 'A webhook was paused']]);
    // Paused: nothing more goes out until it is resumed.
    await addBread(ben.cookie, 'milk');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received.length).toBe(from + 1);
    expect((await trpc(s.app, 'webhooks.update', ann.cookie, { id: hook.id, active: true })).status).toBe(200);
  });
});

describe('webhooks: the sender\'s limits', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => receiver?.close());
  const config = testConfig({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  const target = () => ({ url: `${receiver.url}/limits`, secret: Buffer.alloc(32, 7).toString('base64') });

  it('gives up on an answer that does not come within the deadline over the whole request', async () => {
    receiver.answer('hang');
    const answer = await createWebhookSender(config, { deadlineMs: 300 }).send(target(), { id: 'msg_x', payload: '{}' });
    expect([answer.status, answer.problem]).toEqual([0, 'no full answer within 0.3 s']);
  });

  it('reads no more than 64 KB of an answer', async () => {
    receiver.answer('huge');
    const answer = await createWebhookSender(config).send(target(), { id: 'msg_y', payload: '{}' });
    expect([answer.status, answer.problem]).toEqual([200, null]);
  });

  it('sends nothing to a host that left the list', async () => {
    const from = receiver.received.length;
    const answer = await createWebhookSender(testConfig({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:1' })).send(target(), { id: 'msg_z', payload: '{}' });
    expect(answer.status).toBe(0);
    expect(answer.problem).toContain('is not a host webhooks may be sent to');
    expect(receiver.received.length).toBe(from);
  });
});
