import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterEach, expect } from 'vitest';
import { procedures, type ProcedurePath } from '@site/contracts';
import type { AppDeps } from '../../src/app.ts';
import { issueToken } from '../../src/areas/auth/api-tokens.service.ts';
import { createResetLink } from '../../src/areas/auth/reset-links.ts';
import { listSiteFiles, type BackupFolders } from '../../src/areas/backups/backups.write.ts';
import type { Database } from '../../src/db/database.ts';
import { createContextInner } from '../../src/trpc/context.ts';
import { invoke } from '../../src/trpc/invoke.ts';
import { samples } from '../area-tables.ts';
import { hashToken } from '../../src/identity/sessions.ts';
import { drainJobs } from '../../src/areas/pictures/pictures.worker.ts';
import { drainIndex, indexChildOf } from '../../src/areas/people/people.worker.ts';
import { regroup } from '../../src/areas/people/people.regroup.ts';
import { recordStore } from '../../src/media/index.ts';
import { createUser } from '../helpers.ts';
import { jpegWithExif, multipart, png, uploadVia } from '../pictures/pictures.fixtures.ts';

/** Steps undone after each test (newest first), and temporary folders (named `prefix`...) removed with them. */
export function useCleanup(prefix: string) {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });
  const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  return { cleanup, tmp };
}

/** Every table as sorted JSON rows, asked of the database (so a new area's tables are compared too). */
export async function everyTable(db: Database): Promise<Record<string, unknown>> {
  const tables = await sql<{ tablename: string }>`
    select tablename from pg_tables where schemaname = current_schema() and tablename not like 'kysely_migration%' order by tablename`.execute(db);
  const out: Record<string, unknown> = {};
  for (const { tablename } of tables.rows) {
    const result = await sql<{ rows: unknown }>`select coalesce(json_agg(t order by t::text), '[]'::json) as rows from ${sql.table(tablename)} t`.execute(db);
    out[tablename] = result.rows[0]?.rows;
  }
  return out;
}

/** The site's files by archive name with their bytes (base64), to compare two sites byte for byte. */
export async function filesOf(folders: BackupFolders | string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of await listSiteFiles(folders)) out[file.name] = fs.readFileSync(file.source).toString('base64');
  return out;
}

/**
 * Fills a site through its own procedures: every procedure's sample input (test/area-tables.ts), as
 * the owner, mutations first and each area's a few times so later calls find what earlier ones made.
 * Calls a sample refuses (it names a row that does not exist yet) are skipped: the test checks after
 * it that every table holds rows.
 */
export async function fillEveryArea(deps: AppDeps, app: FastifyInstance): Promise<void> {
  const owner = await createUser(deps, 'Owner', 3);
  await createUser(deps, 'Member', 1);
  const ctx = createContextInner(deps, { user: owner });
  // Where the media are, as a site records it once `npm run media -- move` has switched it.
  await recordStore(deps.db, { active: 'local', previous: null });
  const paths = Object.keys(procedures) as ProcedurePath[];
  for (let round = 0; round < 2; round++) {
    for (const p of paths) {
      if (p === 'auth.logout') continue;
      await invoke(p, ctx, samples[p]).catch(() => {});
    }
  }
  // Real pictures through the upload route: one with its thumbnail made, one still queued.
  const { token } = await deps.sessions.create(owner.id);
  expect((await uploadVia(app, `sid=${token}`, { name: 'beach.jpg', data: await jpegWithExif(), type: 'image/jpeg' })).statusCode).toBe(200);
  // A real photograph with its GPS position (a Nokia Lumia 820's on Sylt): its place, and its search document, are carried.
  const starfish = fs.readFileSync(createRequire(import.meta.url).resolve('exif-parser/test/starfish.jpg'));
  expect((await uploadVia(app, `sid=${token}`, { name: 'starfish.jpg', data: starfish, type: 'image/jpeg' })).statusCode).toBe(200);
  await drainJobs(deps);
  expect(await deps.db.selectFrom('picture_places').select(['town', 'country']).where('town', 'is not', null).execute()).toEqual([{ town: 'List', country: 'Germany' }]);
  expect((await uploadVia(app, `sid=${token}`, { name: 'party.png', data: await png(), type: 'image/png' })).statusCode).toBe(200);
  // A heart and comments on the first picture (the samples ran before any picture existed): one edited, one multiline.
  const beach = await deps.db.selectFrom('pictures').select('id').orderBy('id').executeTakeFirstOrThrow();
  await invoke('pictures.heart', ctx, { id: beach.id, on: true });
  await invoke('pictures.comment', ctx, { id: beach.id, text: 'Grandma Zoë 💛\nthe blue one' });
  await invoke('pictures.comment', ctx, { id: beach.id, text: 'first draft' });
  await invoke('pictures.editComment', ctx, { commentId: (await deps.db.selectFrom('picture_comments').select(sql<number>`max(id)`.as('id')).executeTakeFirstOrThrow()).id, text: 'edited' });
  // A real photograph of two people, indexed by the real child: faces, people, the detector's tags;
  // one of them named, and a member's own tag.
  const portrait = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'people', 'fixtures', 'portrait-6a.jpg'));
  expect((await uploadVia(app, `sid=${token}`, { name: 'two.jpg', data: portrait, type: 'image/jpeg' }, { caption: 'Zoë and Ann' })).statusCode).toBe(200);
  // The same two, cut otherwise: their faces are alike across the two pictures (face_pairs, by the re-grouping below).
  const again = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'people', 'fixtures', 'portrait-6b.jpg'));
  expect((await uploadVia(app, `sid=${token}`, { name: 'again.jpg', data: again, type: 'image/jpeg' }, { caption: 'Ann and Zoë' })).statusCode).toBe(200);
  await drainJobs(deps);
  expect(await drainIndex(deps)).toBeGreaterThan(0);
  await indexChildOf(deps).close();
  const two = await deps.db.selectFrom('pictures').select('id').where('caption', '=', 'Zoë and Ann').executeTakeFirstOrThrow();
  const someone = await deps.db.selectFrom('faces').select('person_id').where('picture_id', '=', two.id).orderBy('ordinal').executeTakeFirstOrThrow();
  await invoke('people.name', ctx, { id: someone.person_id, name: 'Grandma Zoë 👵' });
  // The two are not the same person (a member's answer: people_apart).
  const [first, second] = await deps.db.selectFrom('faces').select('person_id').where('picture_id', '=', two.id).orderBy('ordinal').execute();
  await invoke('people.answer', ctx, { a: first?.person_id, b: second?.person_id, same: false });
  expect(await regroup(deps.db)).not.toHaveProperty('stale');
  expect((await deps.db.selectFrom('face_pairs').select('a').execute()).length).toBeGreaterThan(0);
  await invoke('tags.add', ctx, { pictureId: two.id, tag: 'Sofa' });
  // What the samples cannot reach without more setup, written as those areas write it.
  const db = deps.db;
  // An album (the samples' own is deleted by albums.delete) with both pictures, a view link with a
  // password, and a guest's upload through an upload link, waiting for approval.
  const album = (await invoke('albums.create', ctx, { name: 'Beach 🏖', private: true })) as { id: number };
  const pictureIds = (await db.selectFrom('pictures').select('id').execute()).map((p) => p.id);
  await invoke('albums.addPictures', ctx, { albumId: album.id, pictureIds });
  await invoke('shares.create', ctx, { albumId: album.id, expiresInDays: 7, password: 'sesame street' });
  const uploadLink = (await invoke('shares.createUpload', ctx, { albumId: album.id })) as { url: string };
  const guestForm = multipart({ name: 'guest.png', data: await png(undefined, '#44aa77'), type: 'image/png' }, { name: 'Aunt May' });
  const guestUpload = await app.inject({
    method: 'POST',
    url: `/api/shared/${uploadLink.url.split('/').pop() ?? ''}/upload`,
    headers: { 'content-type': guestForm.contentType },
    payload: guestForm.payload,
  });
  expect(guestUpload.statusCode).toBe(200);
  // A token and a reset link: the samples' calls need a password session and an account named 'existing'.
  await issueToken(deps, owner.id, 'Home Assistant', ['todo:read', 'house:write']);
  await createResetLink(deps, 'Member');
  // A passkey as a browser's ceremony leaves it, and a ceremony under way.
  await sql`insert into auth_passkeys (user_id, credential_id, public_key, counter, transports, name)
    values (${owner.id}, 'cred-AbC_1', 'pQECAyYgASFYIE', 3, 'internal,hybrid', 'Chrome on Linux 🔑')`.execute(db);
  await sql`insert into auth_passkey_challenges (challenge, user_id, expires_at) values ('chal-XyZ', ${owner.id}, now() + interval '5 minutes')`.execute(db);
  await sql`insert into trade_players (user_id, my_island) values (${owner.id}, 'Palm Harbor')`.execute(db);
  await sql`insert into trade_resources (user_id, resource, amount) values (${owner.id}, 'Fish', 12), (${owner.id}, 'Wood', 3)`.execute(db);
  await sql`insert into trade_prices (user_id, island, item, pressure, updated_at) values (${owner.id}, 'Palm Harbor', 'Fish', -2, now())`.execute(db);
  await sql`insert into trade_techs (user_id, tech) values (${owner.id}, 'Trade Ledger')`.execute(db);
  await sql`insert into recipe_ingredients (step_id, position, name, plural_name, quantity, unit_abbreviation)
    select id, 0, 'egg', 'eggs', 2.5, null from recipe_steps order by id limit 1`.execute(db);
  // A recipe in the meal plan and its week shopped (plan_shopped): the samples plan a text, as their recipe is gone by then.
  const planned = await db.selectFrom('recipe_steps').select('recipe_id').orderBy('id').executeTakeFirstOrThrow();
  await invoke('plan.set', ctx, { date: '2026-11-25', meal: 'Dinner', recipeId: planned.recipe_id, servings: 6 });
  await invoke('plan.shop', ctx, { start: '2026-11-23' });
  await sql`insert into dev_runs (action, user_id, who, finished_at, status, exit_code, duration_ms, timeout_seconds, output)
    values ('dev-pull', ${owner.id}, 'Owner', now(), 'succeeded', 0, 1234, 300, ${'Already up to date.\nÜnïcode ✓\n'})`.execute(db);
  await sql`insert into game_server_history (server_id, at, players)
    select id, now() - interval '30 minutes', 3 from game_servers order by id limit 1`.execute(db);
  // Notifications: this browser's push subscription (bound to its session), what it follows, an
  // event with its inbox row and a delivery waiting for a retry (the samples' own may be sent already).
  await sql`insert into push_subscriptions (user_id, session_hash, endpoint, p256dh, auth)
    values (${owner.id}, ${hashToken(token)}, 'https://push.example.org/send/abc', 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', 'tBHItJI5svbpez7KI4CCXg')`.execute(db);
  await sql`insert into notification_follows (user_id, server_id) select ${owner.id}, id from game_servers order by id limit 1 on conflict do nothing`.execute(db);
  await sql`insert into notification_server_watch (server_id, failures, announced) select id, 1, 'up' from game_servers order by id limit 1 on conflict do nothing`.execute(db);
  await sql`insert into notification_days (user_id, kind, day) values (${owner.id}, 'chore.due', '2026-11-25') on conflict do nothing`.execute(db);
  await sql`with e as (insert into notification_events (kind, user_id, title, body, url, fanned_out_at)
      values ('onthisday', ${owner.id}, 'On this day', '2 pictures from this day in earlier years ☀', '/personal/pictures', now()) returning id)
    , i as (insert into notification_inbox (event_id, user_id) select id, ${owner.id} from e)
    insert into push_deliveries (event_id, subscription_id, attempts, next_at)
      select e.id, s.id, 2, now() + interval '1 day' from e, push_subscriptions s where s.endpoint = 'https://push.example.org/send/abc'`.execute(db);
  // Webhooks: one to Home Assistant with its secret, an event it took, a delivery waiting for a retry and its first attempt logged.
  await sql`with w as (insert into webhooks (user_id, url, events, secret, failing_since)
      values (${owner.id}, 'http://homeassistant.local:8123/api/webhook/site-ÿ', '["house.added","server.down"]', 'c2VjcmV0LWtleS1vZi0zMi1ieXRlcy1sb25nLi4uLi4=', now()) returning id)
    , e as (select id from notification_events order by id desc limit 1)
    , s as (insert into webhook_events_seen (event_id) select id from e)
    , d as (insert into webhook_deliveries (webhook_id, event_id, message_id, type, payload, attempts, next_at)
      select w.id, e.id, 'msg_2Lzq0vJ3bS9m', 'onthisday', ${JSON.stringify({ type: 'onthisday', timestamp: '2026-11-25T08:00:00.000Z', data: { title: 'On this day ☀' } })}, 1, now() + interval '30 seconds' from w, e)
    insert into webhook_attempts (webhook_id, message_id, type, attempt, status, problem, duration_ms)
      select w.id, 'msg_2Lzq0vJ3bS9m', 'onthisday', 1, 503, null, 412 from w`.execute(db);
  await sql`insert into tower_daily_results (user_id, date, rounds, floors, won, actions)
    values (${owner.id}, '2026-11-24', 12, 2, false, ${JSON.stringify([{ type: 'pass' }])}::jsonb)`.execute(db);
}

/** Small files shaped like a site's: nested folders, odd names, an empty file, one larger file. */
export function writeFiles(root: string, count: number, large: number): void {
  for (let i = 0; i < count; i++) {
    const dir = path.join(root, 'pictures', String(i % 40).padStart(2, '0'));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, i % 97 === 0 ? `Café ü ${i}.jpg` : `${randomBytes(8).toString('hex')}.jpg`), randomBytes(100 + (i % 500)));
  }
  fs.writeFileSync(path.join(root, 'empty'), '');
  if (large > 0) fs.writeFileSync(path.join(root, 'video.mp4'), randomBytes(large));
}
