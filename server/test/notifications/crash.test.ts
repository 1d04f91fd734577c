import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SpawnedServer } from '../../src/testing/spawn-server.ts';
import { startPushService, type PushService } from '../../src/testing/push-service.ts';
import { callAs, killedWhileDelivering } from '../delivery-crash.ts';
import { createTestDb, type TestDb } from '../helpers.ts';

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
    let hookedId = 0;
    await killedWhileDelivering<{ delivered_at: Date | null; attempts: number }>({
      db,
      // NODE_EXTRA_CA_CERTS comes from the test run's environment (global-setup.ts): the child trusts the push service the same way.
      env: { DATABASE_URL: db.url ?? '', PUSH_ALLOWED_HOSTS: '127.0.0.1' },
      table: 'push_deliveries',
      columns: ['delivered_at', 'attempts'],
      listen: async (started, cookie, hooked) => {
        hookedId = hooked.id;
        const subscription = push.subscribe();
        await callAs(started, cookie, 'push.subscribe', subscription);
        push.answer(subscription.endpoint, 'hang');
      },
      received: () => push.received.length,
      waitFor: (count, timeoutMs) => push.waitFor(count, timeoutMs),
      started: (started) => (server = started),
    });
    expect(push.received.map((r) => [r.status, r.topic, r.message.title])).toEqual([
      ['hang', `event${push.received[0]?.message.id}`, 'Adder added bread'],
      [201, `event${push.received[0]?.message.id}`, 'Adder added bread'],
    ]);
    expect(await db.db.selectFrom('notification_inbox').select('user_id').execute()).toEqual([{ user_id: hookedId }]);
  });
});
