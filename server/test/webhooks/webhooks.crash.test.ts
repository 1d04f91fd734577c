import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpawnedServer } from '../../src/testing/spawn-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing/webhook-receiver.ts';
import { callAs, killedWhileDelivering } from '../delivery-crash.ts';
import { createTestDb, type TestDb } from '../helpers.ts';

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
    let secret = '';
    const delivery = await killedWhileDelivering<{ delivered_at: Date | null; attempts: number; message_id: string }>({
      db,
      env: { DATABASE_URL: db.url ?? '', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
      table: 'webhook_deliveries',
      columns: ['delivered_at', 'attempts', 'message_id'],
      listen: async (started, cookie) => {
        ({ secret } = (await callAs(started, cookie, 'webhooks.create', { url: `${receiver.url}/ha`, events: ['house.added'] })) as { secret: string });
        receiver.answer('hang');
      },
      received: () => receiver.received.length,
      waitFor: (count, timeoutMs) => receiver.waitFor(count, timeoutMs),
      started: (started) => (server = started),
    });
    expect(receiver.received.map((r) => [r.answered, r.headers['webhook-id']])).toEqual([
      ['hang', delivery.message_id],
      [200, delivery.message_id],
    ]);
    for (const r of receiver.received) expect(new Webhook(secret).verify(r.body, r.headers)).toMatchObject({ type: 'house.added', data: { title: 'Adder added bread' } });
    // The log holds the try that was answered (the killed one had no answer to record).
    expect(await db.db.selectFrom('webhook_attempts').select(['status', 'attempt']).execute()).toEqual([{ status: 200, attempt: 2 }]);
  });
});
