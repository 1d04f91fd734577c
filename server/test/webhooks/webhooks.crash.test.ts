import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps } from '../../src/app.ts';
import { spawnServer, type SpawnedServer } from '../../src/testing/spawn-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing/webhook-receiver.ts';
import { createTestDb, createUser, rawRequest, testConfig, type TestDb } from '../helpers.ts';

/**
 * kill -9 of a real server process after the change committed, while its webhook is on its way (the
 * receiver holds the request unanswered), then a restart: the message goes out again with the same
 * webhook-id, is recorded delivered once, and nothing more is sent. Needs the built server
 * (`npm run build -w @site/server`) and TEST_DATABASE_URL, like notifications' crash.test.ts.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('webhooks: a crash between the commit and the receiver\'s answer', () => {
  let db: TestDb;
  let receiver: WebhookReceiver;
  let server: SpawnedServer | undefined;

  beforeAll(async () => {
    db = await createTestDb('postgres');
    receiver = await startWebhookReceiver();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await db?.close();
  });

  it('delivers after a restart, once, with the same webhook-id', { timeout: 120_000 }, async () => {
    const deps = createDeps(testConfig(), db.db);
    const adder = await createUser(deps, 'Adder', 2);
    const owner = await createUser(deps, 'Hooked', 2);
    const adderCookie = `sid=${(await deps.sessions.create(adder.id)).token}`;
    const ownerCookie = `sid=${(await deps.sessions.create(owner.id)).token}`;
    const env = { DATABASE_URL: db.url ?? '', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };
    server = await spawnServer({ env });
    const json = { 'content-type': 'application/json' };
    const created = await rawRequest(server.url, 'POST', '/trpc/webhooks.create', { ...json, cookie: ownerCookie }, JSON.stringify({ url: `${receiver.url}/ha`, events: ['house.added'] }));
    expect(created.status, created.body).toBe(200);
    const secret = (JSON.parse(created.body) as { result: { data: { secret: string } } }).result.data.secret;
    receiver.answer('hang');

    const added = await rawRequest(server.url, 'POST', '/trpc/house.add', { ...json, cookie: adderCookie }, JSON.stringify({ task: 'bread', type: 'To Get' }));
    expect(added.status, added.body).toBe(200);
    await receiver.waitFor(1);
    server.process.kill('SIGKILL');
    await new Promise((resolve) => server?.process.once('exit', resolve));

    // The killed process's lease would run out in a minute: as if it had.
    await sql`update webhook_deliveries set lease_until = now() - interval '1 second' where lease_until is not null`.execute(db.db);
    server = await spawnServer({ env });
    await receiver.waitFor(2, 20_000);
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      const row = await db.db.selectFrom('webhook_deliveries').select('delivered_at').executeTakeFirstOrThrow();
      if (row.delivered_at) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const delivery = await db.db.selectFrom('webhook_deliveries').select(['delivered_at', 'attempts', 'message_id']).executeTakeFirstOrThrow();
    expect(delivery.delivered_at).not.toBeNull();
    expect(delivery.attempts).toBe(2);
    // Another second and a half: nothing more arrives.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received.map((r) => [r.answered, r.headers['webhook-id']])).toEqual([
      ['hang', delivery.message_id],
      [200, delivery.message_id],
    ]);
    for (const r of receiver.received) expect(new Webhook(secret).verify(r.body, r.headers)).toMatchObject({ type: 'house.added', data: { title: 'Adder added bread' } });
    // The log holds the try that was answered (the killed one had no answer to record).
    expect(await db.db.selectFrom('webhook_attempts').select(['status', 'attempt']).execute()).toEqual([{ status: 200, attempt: 2 }]);
  });
});
