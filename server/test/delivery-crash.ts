import { sql } from 'kysely';
import { expect } from 'vitest';
import { createDeps } from '../src/app.ts';
import { spawnServer, type SpawnedServer } from '../src/testing/spawn-server.ts';
import { createUser, rawRequest, testConfig, type TestDb } from './helpers.ts';

const json = { 'content-type': 'application/json' };

/** A call of the spawned server's procedure as a member (their session cookie), answered 200. */
export async function callAs(server: SpawnedServer, cookie: string, procedure: string, input: unknown): Promise<unknown> {
  const res = await rawRequest(server.url, 'POST', `/trpc/${procedure}`, { ...json, cookie }, JSON.stringify(input));
  expect(res.status, res.body).toBe(200);
  return (JSON.parse(res.body) as { result: { data: unknown } }).result.data;
}

/**
 * The crash story of a delivery queue (push messages, webhook calls): a real server process with
 * `env`; `listen` makes Hooked (Family) a target and holds its first delivery unanswered; Adder
 * (Family) adds bread to House; once that delivery is on its way the process is killed with SIGKILL,
 * its lease is run out (it would in a minute) and a second process starts. That one must send it
 * again and record it delivered after 2 attempts; another second and a half passes for anything more
 * to arrive. Returns the second server (the caller's afterAll stops it) and the delivery's row.
 */
export async function killedWhileDelivering<Row extends { delivered_at: Date | null; attempts: number }>(options: {
  db: TestDb;
  env: Record<string, string>;
  table: 'push_deliveries' | 'webhook_deliveries';
  columns: (keyof Row & string)[];
  listen(server: SpawnedServer, hookedCookie: string, hooked: { id: number }): Promise<void>;
  received(): number;
  waitFor(count: number, timeoutMs?: number): Promise<unknown>;
  started(server: SpawnedServer): void;
}): Promise<Row> {
  const { db, table } = options;
  const deps = createDeps(testConfig(), db.db);
  const adder = await createUser(deps, 'Adder', 2);
  const hooked = await createUser(deps, 'Hooked', 2);
  const cookieOf = async (id: number) => `sid=${(await deps.sessions.create(id)).token}`;
  let server = await spawnServer({ env: options.env });
  options.started(server);
  await options.listen(server, await cookieOf(hooked.id), hooked);
  await callAs(server, await cookieOf(adder.id), 'house.add', { task: 'bread', type: 'To Get' });
  await options.waitFor(1);
  server.process.kill('SIGKILL');
  await new Promise((resolve) => server.process.once('exit', resolve));

  await sql`update ${sql.table(table)} set lease_until = now() - interval '1 second' where lease_until is not null`.execute(db.db);
  server = await spawnServer({ env: options.env });
  options.started(server);
  await options.waitFor(2, 20_000);
  const read = () => db.db.selectFrom(table).select(options.columns as never[]).executeTakeFirstOrThrow() as Promise<Row>;
  await expect.poll(async () => (await read()).delivered_at, { timeout: 10_000, interval: 50 }).not.toBeNull();
  const delivery = await read();
  expect(delivery.attempts).toBe(2);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(options.received()).toBe(2);
  return delivery;
}
