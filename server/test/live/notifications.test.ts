import net from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { listenToChannels } from '../../src/db/notifications.ts';

/** A port nobody listens on yet. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The change listener (db/notifications.ts) feeds the session cache, the gallery cache and the live
 * feed: while PostgreSQL cannot be reached it must keep trying, however many attempts fail, and
 * listen again as soon as it can.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('the change listener while PostgreSQL is unreachable', () => {
  it('keeps trying after several failed attempts and listens once the database answers', async () => {
    const target = new URL(process.env.TEST_DATABASE_URL ?? '');
    const port = await freePort();
    const url = new URL(target);
    url.host = `127.0.0.1:${port}`;
    const states: boolean[] = [];
    const payloads: string[] = [];
    const warnings: string[] = [];
    const listening = listenToChannels(
      url.toString(),
      [{ channel: 'site_test_retry', onNotify: (p) => payloads.push(p), onListening: (l) => states.push(l) }],
      { warn: (_obj, msg) => warnings.push(msg) },
    );
    // At least two attempts fail (one a second).
    await new Promise((r) => setTimeout(r, 2_500));
    expect(states.every((s) => !s)).toBe(true);
    expect(warnings).toHaveLength(1);
    // Now a way through to the database appears on that port.
    const proxy = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end);
      upstream.on('error', end);
    });
    await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
    try {
      await listening.ready;
      expect(states.at(-1)).toBe(true);
      const sender = new pg.Client({ connectionString: target.toString() });
      await sender.connect();
      await sender.query(`select pg_notify('site_test_retry', 'hello')`);
      await sender.end();
      await expect.poll(() => payloads, { timeout: 2_000 }).toEqual(['hello']);
    } finally {
      await listening.stop();
      await new Promise((resolve) => proxy.close(resolve));
    }
  }, 30_000);
});
