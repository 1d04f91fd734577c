import { sql } from 'kysely';
import { afterAll, beforeAll, inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/db/database.ts';
import { startPushService, type PushService } from '../../src/testing/push-service.ts';

/** A push service of the test's own for the describe block (HTTPS on 127.0.0.1, trusted through NODE_EXTRA_CA_CERTS by global-setup). */
export function usePushService(): { current: PushService } {
  const holder = {} as { current: PushService };
  beforeAll(async () => {
    holder.current = await startPushService(inject('pushTls'));
  });
  afterAll(async () => holder.current?.close());
  return holder;
}

/** The server's answer to a tRPC call over HTTP, as the browser makes it. */
export async function trpc(app: FastifyInstance, path: string, cookie: string, input?: unknown): Promise<{ status: number; data: unknown; message?: string }> {
  const res = await app.inject({
    method: 'POST',
    url: `/trpc/${path}`,
    headers: { cookie, ...(input === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(input === undefined ? {} : { payload: JSON.stringify(input) }),
  });
  const body = res.json() as { result?: { data: unknown }; error?: { message: string } };
  return { status: res.statusCode, data: body.result?.data, ...(body.error ? { message: body.error.message } : {}) };
}

export async function query(app: FastifyInstance, path: string, cookie: string, input?: unknown): Promise<unknown> {
  const url = `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;
  const res = await app.inject({ method: 'GET', url, headers: { cookie } });
  return (res.json() as { result?: { data: unknown } }).result?.data;
}

/**
 * Waits until the workers have nothing left to do now: every event fanned out, no delivery due or
 * held by a worker. (Deliveries waiting for a later retry do not count.)
 */
export async function settled(db: Database, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = await sql<{ waiting: number; busy: number }>`
      select (select count(*)::int from notification_events where fanned_out_at is null) as waiting,
             (select count(*)::int from push_deliveries where delivered_at is null and failed is null
                and (next_at <= now() or lease_until > now())) as busy`.execute(db);
    const r = row.rows[0];
    if (r && r.waiting === 0 && r.busy === 0) return;
    if (Date.now() > until) throw new Error(`notifications not settled: ${JSON.stringify(r)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
