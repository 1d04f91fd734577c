import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDeps } from '../../src/app.ts';
import { spawnServer, type SpawnedServer } from '../../src/testing/spawn-server.ts';
import { startPushService, type PushService } from '../../src/testing/push-service.ts';
import { createTestDb, createUser, rawRequest, testConfig, type TestDb } from '../helpers.ts';

/**
 * kill -9 of a real server process after the change committed, while its push is on its way (the push
 * service holds the request unanswered), then a restart: the push goes out again with the same Topic
 * (a push service keeps one), it is recorded delivered once, and nothing more is sent. Needs the built
 * server (`npm run build -w @site/server`) and TEST_DATABASE_URL, like pictures.crash.test.ts.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('notifications: a crash between the commit and the push service\'s answer', () => {
  let db: TestDb;
  let push: PushService;
  let server: SpawnedServer | undefined;

  beforeAll(async () => {
    db = await createTestDb('postgres');
    push = await startPushService(inject('pushTls'));
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await push?.close();
    await db?.close();
  });

  it('sends the push after a restart, once more at most and with the same Topic', async () => {
    const deps = createDeps(testConfig(), db.db);
    const adder = await createUser(deps, 'Adder', 2);
    const family = await createUser(deps, 'Family', 2);
    const adderCookie = `sid=${(await deps.sessions.create(adder.id)).token}`;
    const familyCookie = `sid=${(await deps.sessions.create(family.id)).token}`;
    // NODE_EXTRA_CA_CERTS comes from the test run's environment (global-setup.ts): the child trusts the push service the same way.
    const env = { DATABASE_URL: db.url ?? '', PUSH_ALLOWED_HOSTS: '127.0.0.1' };
    server = await spawnServer({ env });
    const subscription = push.subscribe();
    const json = { 'content-type': 'application/json' };
    const subscribed = await rawRequest(server.url, 'POST', '/trpc/push.subscribe', { ...json, cookie: familyCookie }, JSON.stringify(subscription));
    expect(subscribed.status, subscribed.body).toBe(200);
    push.answer(subscription.endpoint, 'hang');

    const added = await rawRequest(server.url, 'POST', '/trpc/house.add', { ...json, cookie: adderCookie }, JSON.stringify({ task: 'bread', type: 'To Get' }));
    expect(added.status, added.body).toBe(200);
    await push.waitFor(1);
    server.process.kill('SIGKILL');
    await new Promise((resolve) => server?.process.once('exit', resolve));

    // The killed process's lease would run out in a minute: as if it had.
    await sql`update push_deliveries set lease_until = now() - interval '1 second' where lease_until is not null`.execute(db.db);
    server = await spawnServer({ env });
    await push.waitFor(2, 20_000);
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      const row = await db.db.selectFrom('push_deliveries').select(['delivered_at', 'attempts']).executeTakeFirstOrThrow();
      if (row.delivered_at) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const delivery = await db.db.selectFrom('push_deliveries').select(['delivered_at', 'attempts']).executeTakeFirstOrThrow();
    expect(delivery.delivered_at).not.toBeNull();
    expect(delivery.attempts).toBe(2);
    // Another second: nothing more arrives.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(push.received.map((r) => [r.status, r.topic, r.message.title])).toEqual([
      ['hang', `event${push.received[0]?.message.id}`, 'Adder added bread'],
      [201, `event${push.received[0]?.message.id}`, 'Adder added bread'],
    ]);
    expect(await db.db.selectFrom('notification_inbox').select('user_id').execute()).toEqual([{ user_id: family.id }]);
  });
});
