import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Level } from '@site/contracts';
import { insertPicture } from '../../src/areas/pictures/pictures.repository.ts';
import { serverChecked } from '../../src/areas/notifications/notifications.events.ts';
import { makeDigests } from '../../src/areas/notifications/notifications.periodic.ts';
import { makeChoreReminders, makeDinnerReminders } from '../../src/areas/notifications/notifications.plan.ts';
import { insertDefaultMeals } from '../../src/areas/plan/plan.migrations.ts';
import { recordEvent } from '../../src/areas/notifications/notifications.events.ts';
import { buildApp, createDeps } from '../../src/app.ts';
import { createDb } from '../../src/db/database.ts';
import { createUser, databases, postJson, TEST_PASSWORD, testConfig, useTestServer, type TestServer } from '../helpers.ts';
import { pictureRow } from '../pictures/pictures.fixtures.ts';
import { query, settled, trpc, usePushService } from './push-helpers.ts';
import type { PushService } from '../../src/testing/push-service.ts';

type Member = { id: number; name: string; level: Level; cookie: string; endpoint: string };

/** A member of `level` signed in on one browser that subscribed to push. */
async function member(s: TestServer, push: PushService, name: string, level: Level): Promise<Member> {
  const user = await createUser(s.deps, name, level);
  const { token } = await s.deps.sessions.create(user.id);
  const cookie = `sid=${token}`;
  const sub = push.subscribe();
  const res = await trpc(s.app, 'push.subscribe', cookie, sub);
  expect(res.status, res.message).toBe(level >= 1 ? 200 : 403);
  return { id: user.id, name, level, cookie, endpoint: sub.endpoint };
}

const subscriberOf = (endpoint: string) => endpoint.split('/').pop();

/** Who got a push of `kind` since `from` (names), and who has it in their inbox. */
async function reached(s: TestServer, push: PushService, members: Member[], kind: string, from = 0) {
  await settled(s.db);
  const pushed = push.received.slice(from).filter((r) => r.message.kind === kind).map((r) => members.find((m) => subscriberOf(m.endpoint) === r.subscriber)?.name);
  const inbox = await s.db
    .selectFrom('notification_inbox as i')
    .innerJoin('notification_events as e', 'e.id', 'i.event_id')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select('u.name')
    .where('e.kind', '=', kind)
    .orderBy('u.name')
    .execute();
  return { pushed: pushed.sort(), inbox: inbox.map((r) => r.name) };
}

describe.each(databases)('notifications: inbox, settings and subscriptions (%s)', (kind) => {
  const s = useTestServer(kind, { PUSH_ALLOWED_HOSTS: '127.0.0.1' }, { watchChanges: true });
  const push = usePushService();

  it('keeps settings, and refuses bad ones with a readable message', async () => {
    const m = await member(s, push.current, 'ann', 1);
    expect(await query(s.app, 'notifications.settings', m.cookie)).toEqual({ muted: [], quietFrom: null, quietTo: null, timeZone: null });
    const saved = await trpc(s.app, 'notifications.setSettings', m.cookie, { muted: ['house.added'], quietFrom: '22:00', quietTo: '07:00', timeZone: 'Europe/Amsterdam' });
    expect(saved.data).toEqual({ muted: ['house.added'], quietFrom: '22:00', quietTo: '07:00', timeZone: 'Europe/Amsterdam' });
    for (const [input, message] of [
      [{ muted: ['nope'], timeZone: 'UTC' }, 'muted.0: Unknown kind of notification'],
      [{ muted: [], quietFrom: '25:00', quietTo: '07:00', timeZone: 'UTC' }, 'quietFrom: Times are written as HH:MM (22:00)'],
      [{ muted: [], quietFrom: '22:00', timeZone: 'UTC' }, 'quietTo: Quiet hours need both a start and an end'],
      [{ muted: [], timeZone: 'Mars/Olympus' }, 'timeZone: Unknown time zone: choose one from the list (an IANA name such as Europe/Amsterdam)'],
      [{ muted: [], deviceTimeZone: 'Mars/Olympus' }, 'deviceTimeZone: Unknown time zone: choose one from the list (an IANA name such as Europe/Amsterdam)'],
    ] as const) {
      const res = await trpc(s.app, 'notifications.setSettings', m.cookie, input);
      expect([res.status, res.message]).toEqual([400, message]);
    }
    expect((await query(s.app, 'notifications.settings', m.cookie) as { timeZone: string }).timeZone).toBe('Europe/Amsterdam');
  });

  it('checks a push address like a recipe link: https only, no private address unless PUSH_ALLOWED_HOSTS names it', async () => {
    const m = await member(s, push.current, 'ann', 1);
    const keys = push.current.subscribe().keys;
    for (const [endpoint, message] of [
      ['http://127.0.0.1:9/push/x', 'Push addresses must start with https://'],
      ['https://10.1.2.3/push/x', 'Push addresses on this network are not allowed'],
      ['https://[::1]/push/x', 'Push addresses on this network are not allowed'],
      ['https://169.254.169.254/latest', 'Push addresses on this network are not allowed'],
      ['not a url at all', 'The push address is not a valid https link'],
    ] as const) {
      const res = await trpc(s.app, 'push.subscribe', m.cookie, { endpoint, keys });
      expect([endpoint, res.status, res.message]).toEqual([endpoint, 400, message]);
    }
    const bad = await trpc(s.app, 'push.subscribe', m.cookie, { endpoint: `${push.current.origin}/push/ab`, keys: { ...keys, p256dh: 'short' } });
    expect([bad.status, bad.message]).toEqual([400, 'keys.p256dh: The browser sent push keys that are not valid']);
    expect(await s.db.selectFrom('push_subscriptions').select('endpoint').execute()).toEqual([{ endpoint: m.endpoint }]);
  });

  it('removes a device\'s subscription with its session: sign out, sign out everywhere else, a password change', async () => {
    const ann = await member(s, push.current, 'ann', 1);
    const count = async () => Number((await s.db.selectFrom('push_subscriptions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    // A second and third browser of Ann's, each subscribed.
    const other = async () => {
      const { token } = await s.deps.sessions.create(ann.id);
      const cookie = `sid=${token}`;
      expect((await trpc(s.app, 'push.subscribe', cookie, push.current.subscribe())).status).toBe(200);
      return cookie;
    };
    const second = await other();
    expect(await count()).toBe(2);
    await trpc(s.app, 'auth.logout', second);
    expect(await count()).toBe(1);
    await other();
    await other();
    expect(await count()).toBe(3);
    expect((await trpc(s.app, 'auth.signOutOthers', ann.cookie)).status).toBe(200);
    expect(await s.db.selectFrom('push_subscriptions').select('endpoint').execute()).toEqual([{ endpoint: ann.endpoint }]);
    const changed = await trpc(s.app, 'auth.changePassword', ann.cookie, { currentPassword: TEST_PASSWORD, newPassword: 'a much better secret 42', confirmPassword: 'a much better secret 42' });
    expect(changed.status, changed.message).toBe(200);
    const kept = await s.db.selectFrom('push_subscriptions').innerJoin('sessions', 'sessions.token_hash', 'push_subscriptions.session_hash').select('endpoint').execute();
    // Whatever sessions the change keeps, no subscription outlives its session.
    expect(await count()).toBe(kept.length);
    await sql`delete from sessions`.execute(s.db);
    expect(await count()).toBe(0);
  });

  it('lists the inbox newest first with a cursor, counts the unread and marks them read', async () => {
    const ann = await member(s, push.current, 'ann', 1);
    await s.db.transaction().execute(async (trx) => {
      for (let i = 1; i <= 35; i++) await recordEvent(trx, { kind: 'onthisday', userId: ann.id, title: `Digest ${i}`, body: 'b', url: '/personal/pictures' });
    });
    await settled(s.db);
    expect(await query(s.app, 'notifications.unreadCount', ann.cookie)).toEqual({ count: 35 });
    const first = (await query(s.app, 'notifications.list', ann.cookie, {})) as { items: { id: number; title: string; read: boolean; url: string; kind: string }[]; nextCursor: number };
    expect(first.items.length).toBe(30);
    expect(first.items[0]).toMatchObject({ title: 'Digest 35', kind: 'onthisday', url: '/personal/pictures', read: false });
    const second = (await query(s.app, 'notifications.list', ann.cookie, { cursor: first.nextCursor })) as { items: { id: number; title: string }[]; nextCursor: number | null };
    expect(second.items.map((i) => i.title)).toEqual(['Digest 5', 'Digest 4', 'Digest 3', 'Digest 2', 'Digest 1']);
    expect(second.nextCursor).toBeNull();
    expect((await trpc(s.app, 'notifications.markRead', ann.cookie, { ids: [first.items[0]?.id] })).data).toEqual({ marked: 1 });
    expect(await query(s.app, 'notifications.unreadCount', ann.cookie)).toEqual({ count: 34 });
    // Another member's ids are not theirs to mark.
    const bob = await member(s, push.current, 'bob', 1);
    expect((await trpc(s.app, 'notifications.markRead', bob.cookie, { ids: [first.items[1]?.id] })).data).toEqual({ marked: 0 });
    expect((await trpc(s.app, 'notifications.markRead', ann.cookie, { all: true })).data).toEqual({ marked: 34 });
    expect(await query(s.app, 'notifications.unreadCount', ann.cookie)).toEqual({ count: 0 });
  });
});

describe.each(databases)('notifications: each kind reaches exactly who may see it (%s)', (kind) => {
  const s = useTestServer(kind, { PUSH_ALLOWED_HOSTS: '127.0.0.1' }, { watchChanges: true });
  const push = usePushService();
  /** One subscribed member per level, plus the one who acts. */
  async function everyone(actorLevel: Level) {
    const members = [];
    for (const level of [0, 1, 2, 3] as const) members.push(await member(s, push.current, `level${level}`, level));
    const actor = await member(s, push.current, 'actor', actorLevel);
    return { members: [...members, actor], actor };
  }

  it('house.added: the family (level 2 and up), not the one who added it, with the message decrypted as sent', async () => {
    const { members, actor } = await everyone(2);
    const from = push.current.received.length;
    expect((await trpc(s.app, 'house.add', actor.cookie, { task: 'milk', type: 'To Get' })).status).toBe(200);
    expect(await reached(s, push.current, members, 'house.added', from)).toEqual({ pushed: ['level2', 'level3'], inbox: ['level2', 'level3'] });
    const got = push.current.received.at(-1);
    expect(got?.message).toMatchObject({ kind: 'house.added', title: 'actor added milk', body: 'House To Get', url: '/house' });
    expect(got?.topic).toBe(`event${got?.message.id}`);
    expect(got?.jwt.sub).toBe('mailto:webpush@localhost');
    expect(push.current.refused).toEqual([]);
  });

  it('picture.waiting to admins; picture.approved to its uploader; picture.social to its uploader', async () => {
    const { members, actor } = await everyone(1);
    const from = push.current.received.length;
    const picture = await s.db.transaction().execute((trx) => insertPicture(trx, pictureRow(actor, 'beach', [2020, 7, 1], 'pending')));
    expect(await reached(s, push.current, members, 'picture.waiting', from)).toEqual({ pushed: ['level3'], inbox: ['level3'] });
    const admin = members.find((m) => m.name === 'level3') as Member;
    expect((await trpc(s.app, 'pictures.approve', admin.cookie, { id: picture.id })).status).toBe(200);
    expect(await reached(s, push.current, members, 'picture.approved', from)).toEqual({ pushed: ['actor'], inbox: ['actor'] });
    const fan = members.find((m) => m.name === 'level1') as Member;
    expect((await trpc(s.app, 'pictures.heart', fan.cookie, { id: picture.id, on: true })).status).toBe(200);
    // From another member (one member's hearts and comments within a while are summed: push-trust.test.ts).
    const otherFan = members.find((m) => m.name === 'level2') as Member;
    expect((await trpc(s.app, 'pictures.comment', otherFan.cookie, { id: picture.id, text: 'lovely' })).status).toBe(200);
    // Their own heart on their own picture is no news.
    expect((await trpc(s.app, 'pictures.heart', actor.cookie, { id: picture.id, on: true })).status).toBe(200);
    expect(await reached(s, push.current, members, 'picture.social', from)).toEqual({ pushed: ['actor', 'actor'], inbox: ['actor', 'actor'] });
    expect(push.current.received.filter((r) => r.message.kind === 'picture.social').map((r) => r.message.title)).toEqual(['level1 gave your picture a heart', 'level2 commented on your picture']);
  });

  it('account.waiting: a sign-up tells the admins', async () => {
    const { members } = await everyone(1);
    const from = push.current.received.length;
    const res = await postJson(s.app, '/api/signup_attempt', { signupName: 'newcomer', signupPass: 'a long enough password', signupConfPass: 'a long enough password' });
    expect(res.statusCode).toBe(200);
    await settled(s.db);
    const told = push.current.received.slice(from).filter((r) => r.message.kind === 'account.waiting' && r.message.body.startsWith('newcomer'));
    expect(told.map((r) => members.find((m) => subscriberOf(m.endpoint) === r.subscriber)?.name)).toEqual(['level3']);
    expect(told[0]?.message).toMatchObject({ title: 'An account waits for approval', body: 'newcomer signed up and waits for an admin.', url: '/admin' });
  });

  it('handled by anyone, done for everyone: an upload\'s waiting pictures are one notification, and approving or refusing them and the accounts stops the bells counting', async () => {
    const { members, actor } = await everyone(1);
    const admin = members.find((m) => m.name === 'level3') as Member;
    const second = await member(s, push.current, 'admin2', 3);
    const unread = async (m: Member) => ((await query(s.app, 'notifications.unreadCount', m.cookie)) as { count: number }).count;
    type Item = { title: string; kind: string; read: boolean; done: boolean };
    const inbox = async (m: Member) => ((await query(s.app, 'notifications.list', m.cookie, {})) as { items: (Item & { body: string })[] }).items.filter((i) => !i.body.startsWith('level0 '));
    const waiting = async (m: Member) => (await inbox(m)).filter((i) => i.kind === 'picture.waiting');
    // What the members' own sign-ups made is read: the bells start at 0.
    await settled(s.db);
    for (const m of [admin, second]) expect((await trpc(s.app, 'notifications.markRead', m.cookie, { all: true })).status).toBe(200);

    // Four pictures of one upload (the worker may fan out between them): one notification.
    const pictures = [];
    for (const [i, caption] of ['beach', 'dunes', 'pier', 'sunset'].entries()) {
      pictures.push(await s.db.transaction().execute((trx) => insertPicture(trx, pictureRow(actor, caption, [2020, 7, 1 + i], 'pending'))));
      if (i === 1) await settled(s.db);
    }
    await settled(s.db);
    for (const m of [admin, second]) {
      expect(await waiting(m)).toEqual([{ title: '4 pictures wait for approval', kind: 'picture.waiting', body: 'sunset', read: false, done: false, id: expect.any(Number), url: '/admin/pictures', createdAt: expect.any(String) }]);
      expect(await unread(m)).toBe(1);
    }
    // The uploader and the others are told nothing of their waiting.
    expect(await reached(s, push.current, [...members, second], 'picture.waiting')).toMatchObject({ inbox: ['admin2', 'level3'] });

    // Two accounts sign up.
    for (const name of ['newcomer', 'visitor']) {
      const res = await postJson(s.app, '/api/signup_attempt', { signupName: name, signupPass: 'a long enough password', signupConfPass: 'a long enough password' });
      expect(res.statusCode).toBe(200);
    }
    await settled(s.db);
    expect(await unread(admin)).toBe(3);
    expect(await unread(second)).toBe(3);

    // One admin approves two pictures: the other two still wait, said so, still new.
    for (const picture of pictures.slice(0, 2)) expect((await trpc(s.app, 'pictures.approve', admin.cookie, { id: picture.id })).status).toBe(200);
    expect((await waiting(second)).map((i) => [i.title, i.read, i.done])).toEqual([['2 pictures wait for approval', false, false]]);
    expect(await unread(second)).toBe(3);
    // She refuses the other two (the title counts down to the last): done for both admins, the bells stop counting it.
    for (const picture of pictures.slice(2)) expect((await trpc(s.app, 'pictures.reject', admin.cookie, { id: picture.id })).status).toBe(200);
    for (const m of [admin, second]) {
      expect((await waiting(m)).map((i) => [i.title, i.read, i.done])).toEqual([['A picture waits for approval', true, true]]);
      expect(await unread(m)).toBe(2);
    }

    // The second admin approves one account; the other account is deleted: both done, for both admins.
    expect((await trpc(s.app, 'admin.setLevel', second.cookie, { name: 'newcomer', level: 1 })).status).toBe(200);
    expect(await unread(admin)).toBe(1);
    await s.db.deleteFrom('users').where('name', '=', 'visitor').execute();
    for (const m of [admin, second]) {
      expect(await unread(m)).toBe(0);
      const accounts = (await inbox(m)).filter((i) => i.kind === 'account.waiting');
      expect(accounts.map((i) => [i.read, i.done])).toEqual([
        [true, true],
        [true, true],
      ]);
    }

    // A picture handled before the worker fans it out is never told; a new upload after a handled one is a new notification.
    const from = push.current.received.length;
    // In one transaction: the worker wakes at the commit of the event, so "before" is certain only so.
    await s.db.transaction().execute(async (trx) => {
      const late = await insertPicture(trx, pictureRow(actor, 'harbour', [2021, 1, 1], 'pending'));
      await trx.updateTable('pictures').set({ status: 'approved' }).where('id', '=', late.id).execute();
    });
    await settled(s.db);
    expect(push.current.received.slice(from).filter((r) => r.message.kind === 'picture.waiting')).toEqual([]);
    expect(await unread(admin)).toBe(0);
    await s.db.transaction().execute((trx) => insertPicture(trx, pictureRow(actor, 'lighthouse', [2021, 1, 2], 'pending')));
    await settled(s.db);
    expect((await waiting(admin)).map((i) => [i.title, i.read, i.done])).toEqual([
      ['A picture waits for approval', false, false],
      ['A picture waits for approval', true, true],
    ]);
    expect(await unread(admin)).toBe(1);
  });

  it('server.down after two failed checks in a row and server.up when it answers, once per change, to followers', async () => {
    const { members } = await everyone(1);
    const server = await s.db.insertInto('game_servers').values({ port: 25565, description: 'Minecraft', game: 'minecraft' } as never).returning('id').executeTakeFirstOrThrow();
    for (const m of members) {
      const res = await trpc(s.app, 'notifications.follow', m.cookie, { id: server.id, follow: true });
      expect(res.status).toBe(m.level >= 1 ? 200 : 403);
    }
    expect((await trpc(s.app, 'notifications.follow', members[1]?.cookie ?? '', { id: server.id, follow: false })).data).toEqual({ ids: [] });
    const check = (status: 'Online' | 'Offline') => s.db.transaction().execute((trx) => serverChecked(trx, { id: server.id, description: 'Minecraft' }, status));
    const from = push.current.received.length;
    await check('Online');
    await check('Offline');
    expect(await reached(s, push.current, members, 'server.down', from)).toEqual({ pushed: [], inbox: [] });
    await check('Offline');
    await check('Offline');
    expect(await reached(s, push.current, members, 'server.down', from)).toEqual({ pushed: ['actor', 'level2', 'level3'], inbox: ['actor', 'level2', 'level3'] });
    await check('Online');
    await check('Online');
    expect(await reached(s, push.current, members, 'server.up', from)).toEqual({ pushed: ['actor', 'level2', 'level3'], inbox: ['actor', 'level2', 'level3'] });
    expect(push.current.received.at(-1)?.message.title).toBe('Minecraft is back');
  });

  it('onthisday: one digest at 08:00 in the member\'s own time zone when earlier years have pictures of the day', async () => {
    const { members } = await everyone(1);
    const admin = members.find((m) => m.name === 'level3') as Member;
    await s.db.transaction().execute((trx) => insertPicture(trx, pictureRow(admin, 'old', [2019, 3, 14], 'approved')));
    for (const m of members.filter((x) => x.level >= 1)) {
      await trpc(s.app, 'notifications.setSettings', m.cookie, { muted: [], timeZone: m.name === 'actor' ? 'Pacific/Auckland' : 'Europe/Amsterdam' });
    }
    // 06:30 UTC on 14 March is 07:30 in Amsterdam (not yet) and 19:30 in Auckland (the 14th there).
    expect(await makeDigests(s.deps, new Date('2026-03-14T06:30:00Z'))).toBe(1);
    // 07:00 UTC: 08:00 in Amsterdam; Auckland already had its digest today.
    expect(await makeDigests(s.deps, new Date('2026-03-14T07:00:00Z'))).toBe(3);
    expect(await makeDigests(s.deps, new Date('2026-03-14T09:00:00Z'))).toBe(0);
    expect(await reached(s, push.current, members, 'onthisday')).toEqual({ pushed: ['actor', 'level1', 'level2', 'level3'], inbox: ['actor', 'level1', 'level2', 'level3'] });
    expect(push.current.received.at(-1)?.message.body).toBe('1 picture from this day in earlier years');
  });
});

describe.each(databases)('notifications: the planning kinds, chore.due and dinner.tonight (%s)', (kind) => {
  const s = useTestServer(kind, { PUSH_ALLOWED_HOSTS: '127.0.0.1', SITE_TIME_ZONE: 'UTC' }, { watchChanges: true });
  const push = usePushService();
  beforeEach(async () => {
    await insertDefaultMeals(s.db);
  });
  const ok = async (res: Promise<{ status: number; message?: string }>) => expect((await res).status, (await res).message).toBe(200);
  /** A chore made through the page, then due on `due` (the page dates it from the real today). */
  async function chore(by: Member, name: string, who: unknown, due: string): Promise<number> {
    const res = await trpc(s.app, 'chores.create', by.cookie, { name, every: { days: 7 }, who });
    expect(res.status, res.message).toBe(200);
    const { id } = res.data as { id: number };
    await s.db.updateTable('chores').set({ next_date: due }).where('id', '=', id).execute();
    return id;
  }
  const bodies = (k: string, from: number) => push.current.received.slice(from).filter((r) => r.message.kind === k).map((r) => r.message.body).sort();

  it('chore.due: at 08:00 in their zone, to whoever\'s turn it is, once a day, only on the due day', async () => {
    const ann = await member(s, push.current, 'ann', 2);
    const ben = await member(s, push.current, 'ben', 2);
    const dan = await member(s, push.current, 'dan', 3);
    const low = await member(s, push.current, 'low', 1);
    const everyone = [ann, ben, dan, low];
    await ok(trpc(s.app, 'notifications.setSettings', ann.cookie, { muted: [], timeZone: 'Europe/Amsterdam' }));
    await chore(ann, 'Bins', { turns: ['ben', 'ann'] }, '2026-03-14');
    await chore(ann, 'Hoover', { one: 'dan' }, '2026-03-15');
    await chore(ann, 'Windows', { one: 'ann' }, '2026-03-13');
    const from = push.current.received.length;
    // 06:30 UTC: 07:30 in Amsterdam, not yet anywhere.
    expect(await makeChoreReminders(s.deps, new Date('2026-03-14T06:30:00Z'))).toBe(0);
    // 08:00 in Amsterdam: Bins is ben's turn and ann's Windows was due yesterday: nothing for ann.
    expect(await makeChoreReminders(s.deps, new Date('2026-03-14T07:00:00Z'))).toBe(0);
    // 08:00 UTC (the site's zone, for those who never saved settings): ben's Bins; dan's Hoover is tomorrow.
    expect(await makeChoreReminders(s.deps, new Date('2026-03-14T08:00:00Z'))).toBe(1);
    expect(await makeChoreReminders(s.deps, new Date('2026-03-14T09:00:00Z'))).toBe(0);
    expect(await makeChoreReminders(s.deps, new Date('2026-03-14T23:59:00Z'))).toBe(0);
    expect(await reached(s, push.current, everyone, 'chore.due', from)).toEqual({ pushed: ['ben'], inbox: ['ben'] });
    expect(push.current.received.at(-1)?.message).toMatchObject({ kind: 'chore.due', title: 'A chore is due today', body: 'Bins', url: '/house/chores' });
    // The next day: Hoover for dan; Bins, overdue now, is not told again.
    expect(await makeChoreReminders(s.deps, new Date('2026-03-15T08:00:00Z'))).toBe(1);
    expect(await reached(s, push.current, everyone, 'chore.due', from)).toEqual({ pushed: ['ben', 'dan'], inbox: ['ben', 'dan'] });
    expect(bodies('chore.due', from)).toEqual(['Bins', 'Hoover']);
  });

  it('the member\'s time zone: the first save fills it from the device, another device\'s save leaves it, only a chosen one changes it, a bad one changes nothing', async () => {
    const ann = await member(s, push.current, 'ann', 2);
    const zoneOf = async (m: Member) => ((await query(s.app, 'notifications.settings', m.cookie)) as { timeZone: string | null }).timeZone;
    expect(await zoneOf(ann)).toBeNull();
    // The phone in Bangkok saves first: its zone becomes ann's.
    await ok(trpc(s.app, 'notifications.setSettings', ann.cookie, { muted: [], deviceTimeZone: 'Asia/Bangkok' }));
    expect(await zoneOf(ann)).toBe('Asia/Bangkok');
    // A desktop in UTC saves another setting: the switch changes, the zone stays.
    const fromDesktop = await trpc(s.app, 'notifications.setSettings', ann.cookie, { muted: ['house.added'], quietFrom: '22:00', quietTo: '07:00', deviceTimeZone: 'UTC' });
    expect(fromDesktop.data).toEqual({ muted: ['house.added'], quietFrom: '22:00', quietTo: '07:00', timeZone: 'Asia/Bangkok' });
    // An unknown zone is refused with a readable message, and nothing of that save is kept.
    const bad = await trpc(s.app, 'notifications.setSettings', ann.cookie, { muted: [], timeZone: 'Asia/Atlantis', deviceTimeZone: 'UTC' });
    expect([bad.status, bad.message]).toEqual([400, 'timeZone: Unknown time zone: choose one from the list (an IANA name such as Europe/Amsterdam)']);
    expect(await query(s.app, 'notifications.settings', ann.cookie)).toEqual({ muted: ['house.added'], quietFrom: '22:00', quietTo: '07:00', timeZone: 'Asia/Bangkok' });
    // Quiet hours are weighed at the real clock when a push goes out (22:00-07:00 in Bangkok is 15:00-24:00
    // UTC): cleared, so what follows does not depend on the hour the test runs at.
    await ok(trpc(s.app, 'notifications.setSettings', ann.cookie, { muted: ['house.added'], quietFrom: null, quietTo: null, deviceTimeZone: 'UTC' }));
    expect(await zoneOf(ann)).toBe('Asia/Bangkok');
    // The daily chore is told at 08:00 in Bangkok (01:00 UTC), not at 08:00 UTC.
    await chore(ann, 'Bins', { one: 'ann' }, '2026-03-14');
    const from = push.current.received.length;
    expect(await makeChoreReminders(s.deps, new Date('2026-03-14T00:59:00Z'))).toBe(0);
    expect(await makeChoreReminders(s.deps, new Date('2026-03-14T01:00:00Z'))).toBe(1);
    expect(await reached(s, push.current, [ann], 'chore.due', from)).toEqual({ pushed: ['ann'], inbox: ['ann'] });
    // Chosen on purpose in the select: it changes.
    await ok(trpc(s.app, 'notifications.setSettings', ann.cookie, { muted: ['house.added'], timeZone: 'Europe/Oslo', deviceTimeZone: 'UTC' }));
    expect(await zoneOf(ann)).toBe('Europe/Oslo');
    // A member whose first save comes without a device zone (an API client) gets the site's.
    const ben = await member(s, push.current, 'ben', 2);
    await ok(trpc(s.app, 'notifications.setSettings', ben.cookie, { muted: [] }));
    expect(await zoneOf(ben)).toBe('UTC');
  });

  it('chore.due: a chore added after 08:00 for that day is not told that day, even when the member had none at 08:00', async () => {
    const ann = await member(s, push.current, 'ann', 2);
    const ben = await member(s, push.current, 'ben', 2);
    const from = push.current.received.length;
    // 08:00 UTC: nothing is due today for anyone: the day is claimed all the same.
    expect(await makeChoreReminders(s.deps, new Date('2026-03-14T08:00:00Z'))).toBe(0);
    await chore(ann, 'Bins', { one: 'ben' }, '2026-03-14');
    expect(await makeChoreReminders(s.deps, new Date('2026-03-14T10:00:00Z'))).toBe(0);
    expect(await reached(s, push.current, [ann, ben], 'chore.due', from)).toEqual({ pushed: [], inbox: [] });
    // The next morning it is overdue, and an overdue chore is not told.
    expect(await makeChoreReminders(s.deps, new Date('2026-03-15T08:00:00Z'))).toBe(0);
  });

  it('chore.due: an "anyone" chore tells every family member, listed with their own chores of the day', async () => {
    const ann = await member(s, push.current, 'ann', 2);
    const ben = await member(s, push.current, 'ben', 3);
    const low = await member(s, push.current, 'low', 1);
    await chore(ann, 'Dishes', { anyone: true }, '2026-03-14');
    await chore(ann, 'Bins', { turns: ['ben', 'ann'] }, '2026-03-14');
    const from = push.current.received.length;
    expect(await makeChoreReminders(s.deps, new Date('2026-03-14T08:00:00Z'))).toBe(2);
    expect(await reached(s, push.current, [ann, ben, low], 'chore.due', from)).toEqual({ pushed: ['ann', 'ben'], inbox: ['ann', 'ben'] });
    expect(bodies('chore.due', from)).toEqual(['Bins, Dishes', 'Dishes']);
    expect(push.current.received.slice(from).map((r) => r.message.title).sort()).toEqual(['2 chores are due today', 'A chore is due today']);
  });

  it('dinner.tonight: at 15:00 in the cook\'s zone, to the cook of the day\'s Dinner only, naming the recipe or the text', async () => {
    const ann = await member(s, push.current, 'ann', 2);
    const ben = await member(s, push.current, 'ben', 2);
    const dan = await member(s, push.current, 'dan', 3);
    await ok(trpc(s.app, 'notifications.setSettings', ann.cookie, { muted: [], timeZone: 'Pacific/Auckland' }));
    await ok(trpc(s.app, 'plan.set', ben.cookie, { date: '2026-03-14', meal: 'Dinner', text: 'Pancakes 🥞', cook: 'ann' }));
    await ok(trpc(s.app, 'plan.set', ben.cookie, { date: '2026-03-14', meal: 'Lunch', text: 'Soup', cook: 'ben' }));
    await ok(trpc(s.app, 'plan.set', ben.cookie, { date: '2026-03-15', meal: 'Dinner', text: 'Leftovers' }));
    const from = push.current.received.length;
    // 02:00 UTC on 14 March is 15:00 in Auckland: ann cooks that day's dinner.
    expect(await makeDinnerReminders(s.deps, new Date('2026-03-14T01:59:00Z'))).toBe(0);
    expect(await makeDinnerReminders(s.deps, new Date('2026-03-14T02:00:00Z'))).toBe(1);
    expect(await makeDinnerReminders(s.deps, new Date('2026-03-14T15:00:00Z'))).toBe(0);
    expect(await reached(s, push.current, [ann, ben, dan], 'dinner.tonight', from)).toEqual({ pushed: ['ann'], inbox: ['ann'] });
    expect(push.current.received.at(-1)?.message).toMatchObject({ kind: 'dinner.tonight', title: 'You cook dinner tonight', body: 'Pancakes 🥞', url: '/house/plan' });
    // The 15th's dinner has no cook: nobody is told.
    expect(await makeDinnerReminders(s.deps, new Date('2026-03-15T02:00:00Z'))).toBe(0);
    expect(await makeDinnerReminders(s.deps, new Date('2026-03-15T15:00:00Z'))).toBe(0);
    // A recipe is named by its title.
    const recipe = await s.db.insertInto('recipes').values({ title: 'Lasagne', servings: 4 } as never).returning('id').executeTakeFirstOrThrow();
    await ok(trpc(s.app, 'plan.set', ben.cookie, { date: '2026-03-16', meal: 'Dinner', recipeId: recipe.id, cook: 'dan' }));
    expect(await makeDinnerReminders(s.deps, new Date('2026-03-16T15:00:00Z'))).toBe(1);
    expect(await reached(s, push.current, [ann, ben, dan], 'dinner.tonight', from)).toEqual({ pushed: ['ann', 'dan'], inbox: ['ann', 'dan'] });
    expect(push.current.received.at(-1)?.message.body).toBe('Lasagne');
  });

  it('a member lowered below the family level receives neither, whether lowered before it is made or before it is sent', async () => {
    const ann = await member(s, push.current, 'ann', 2);
    const ben = await member(s, push.current, 'ben', 2);
    await chore(ann, 'Bins', { one: 'ben' }, '2026-03-14');
    await ok(trpc(s.app, 'plan.set', ann.cookie, { date: '2026-03-14', meal: 'Dinner', text: 'Pasta', cook: 'ben' }));
    await s.db.updateTable('users').set({ level: 1 }).where('id', '=', ben.id).execute();
    const from = push.current.received.length;
    expect(await makeChoreReminders(s.deps, new Date('2026-03-14T08:00:00Z'))).toBe(0);
    expect(await makeDinnerReminders(s.deps, new Date('2026-03-14T15:00:00Z'))).toBe(0);
    // Made while ben was the cook, sent after: the level (and the cook) are checked when it is sent.
    await s.db.updateTable('users').set({ level: 2 }).where('id', '=', ben.id).execute();
    const slot = await s.db.selectFrom('plan_slots').select('id').where('date', '=', '2026-03-14').executeTakeFirstOrThrow();
    await s.db.transaction().execute(async (trx) => {
      await recordEvent(trx, { kind: 'dinner.tonight', userId: ben.id, subjectId: slot.id, title: 'You cook dinner tonight', body: 'Pasta', url: '/house/plan' });
      await recordEvent(trx, { kind: 'chore.due', userId: ben.id, title: 'A chore is due today', body: 'Bins', url: '/house/chores' });
      await trx.updateTable('users').set({ level: 1 }).where('id', '=', ben.id).execute();
    });
    await s.db.transaction().execute(async (trx) => {
      await recordEvent(trx, { kind: 'dinner.tonight', userId: ann.id, subjectId: slot.id, title: 'You cook dinner tonight', body: 'Pasta', url: '/house/plan' });
    });
    expect(await reached(s, push.current, [ann, ben], 'chore.due', from)).toEqual({ pushed: [], inbox: [] });
    // ann is family but not the cook: nothing either.
    expect(await reached(s, push.current, [ann, ben], 'dinner.tonight', from)).toEqual({ pushed: [], inbox: [] });
  });

  it('each planning kind is mutable like the others', async () => {
    const ann = await member(s, push.current, 'ann', 2);
    const saved = await trpc(s.app, 'notifications.setSettings', ann.cookie, { muted: ['chore.due', 'dinner.tonight'], timeZone: 'UTC' });
    expect(saved.data).toMatchObject({ muted: ['chore.due', 'dinner.tonight'] });
    await chore(ann, 'Bins', { one: 'ann' }, '2026-03-14');
    await ok(trpc(s.app, 'plan.set', ann.cookie, { date: '2026-03-14', meal: 'Dinner', text: 'Pasta', cook: 'ann' }));
    const from = push.current.received.length;
    await makeChoreReminders(s.deps, new Date('2026-03-14T08:00:00Z'));
    await makeDinnerReminders(s.deps, new Date('2026-03-14T15:00:00Z'));
    expect(await reached(s, push.current, [ann], 'chore.due', from)).toEqual({ pushed: [], inbox: [] });
    expect(await reached(s, push.current, [ann], 'dinner.tonight', from)).toEqual({ pushed: [], inbox: [] });
  });
});

describe.each(databases)('notifications: mute, quiet hours, retries, prune and send-time rules (%s)', (kind) => {
  const s = useTestServer(kind, { PUSH_ALLOWED_HOSTS: '127.0.0.1' }, { watchChanges: true });
  const push = usePushService();
  /** Makes the waiting retries due now, as if their backoff had passed (once the worker has recorded the last answers). */
  const dueNow = async () => {
    while (await s.db.selectFrom('push_deliveries').select('id').where('lease_until', 'is not', null).executeTakeFirst()) await new Promise((r) => setTimeout(r, 20));
    await s.db.updateTable('push_deliveries').set({ next_at: new Date(Date.now() - 1000) }).where('delivered_at', 'is', null).execute();
  };
  const addMilk = async (cookie: string) => expect((await trpc(s.app, 'house.add', cookie, { task: 'milk', type: 'To Get' })).status).toBe(200);

  it('a muted kind makes nothing; quiet hours fill the inbox but push nothing', async () => {
    const actor = await member(s, push.current, 'actor', 2);
    const muted = await member(s, push.current, 'muted', 2);
    const quiet = await member(s, push.current, 'quiet', 2);
    const plain = await member(s, push.current, 'plain', 2);
    await trpc(s.app, 'notifications.setSettings', muted.cookie, { muted: ['house.added'], timeZone: 'UTC' });
    // Quiet all day but one minute: whenever the test runs, it is quiet now.
    const now = new Date();
    const minute = (offset: number) => new Date(now.getTime() + offset * 60_000).toISOString().slice(11, 16);
    await trpc(s.app, 'notifications.setSettings', quiet.cookie, { muted: [], quietFrom: minute(-2), quietTo: minute(-3), timeZone: 'UTC' });
    await addMilk(actor.cookie);
    expect(await reached(s, push.current, [actor, muted, quiet, plain], 'house.added')).toEqual({ pushed: ['plain'], inbox: ['plain', 'quiet'] });
  });

  it('prunes a subscription at 410 and at 404; retries a 429 and a 500 until the push service takes it', async () => {
    const actor = await member(s, push.current, 'actor', 2);
    const gone = await member(s, push.current, 'gone', 2);
    const missing = await member(s, push.current, 'missing', 2);
    const busy = await member(s, push.current, 'busy', 2);
    push.current.answer(gone.endpoint, 410);
    push.current.answer(missing.endpoint, 404);
    push.current.answer(busy.endpoint, 429, 500);
    const from = push.current.received.length;
    await addMilk(actor.cookie);
    // The backoff's waits pass at once: the retries are made due as if the time had passed.
    for (let n = from + 3; n <= from + 5; n++) {
      await push.current.waitFor(n);
      await dueNow();
    }
    await settled(s.db);
    expect((await s.db.selectFrom('push_subscriptions').innerJoin('users', 'users.id', 'push_subscriptions.user_id').select('users.name').orderBy('users.name').execute()).map((r) => r.name)).toEqual(['actor', 'busy']);
    const tries = push.current.received.slice(from).filter((r) => r.subscriber === subscriberOf(busy.endpoint));
    expect(tries.map((t) => t.status)).toEqual([429, 500, 201]);
    // The same Topic each time: a push service keeps one of them.
    expect(new Set(tries.map((t) => t.topic)).size).toBe(1);
    const delivery = await s.db.selectFrom('push_deliveries').select(['attempts', 'delivered_at']).executeTakeFirstOrThrow();
    expect(delivery.attempts).toBe(3);
    expect(delivery.delivered_at).not.toBeNull();
  });

  it('a member whose level was lowered receives nothing more, even a retry already due', async () => {
    const actor = await member(s, push.current, 'actor', 2);
    const lowered = await member(s, push.current, 'lowered', 2);
    const kept = await member(s, push.current, 'kept', 2);
    push.current.answer(lowered.endpoint, 429);
    const from = push.current.received.length;
    await addMilk(actor.cookie);
    await push.current.waitFor(from + 2);
    // While its retry waits, the member goes down to level 1 (no longer family).
    await s.db.updateTable('users').set({ level: 1 }).where('id', '=', lowered.id).execute();
    await dueNow();
    await settled(s.db);
    expect(push.current.received.slice(from).map((r) => [r.subscriber === subscriberOf(kept.endpoint) ? 'kept' : 'lowered', r.status])).toEqual(
      expect.arrayContaining([['kept', 201], ['lowered', 429]]),
    );
    expect(push.current.received.length - from).toBe(2);
    // And an event made after the change reaches only the others, inbox included.
    await addMilk(actor.cookie);
    expect(await reached(s, push.current, [actor, lowered, kept], 'house.added', from + 2)).toEqual({ pushed: ['kept'], inbox: ['kept', 'kept', 'lowered'] });
  });

  it('decides at send time: an event committed with a level change after it reaches nobody the change excluded', async () => {
    const actor = await member(s, push.current, 'actor', 2);
    const fam = await member(s, push.current, 'fam', 2);
    const from = push.current.received.length;
    await s.db.transaction().execute(async (trx) => {
      await recordEvent(trx, { kind: 'house.added', actorId: actor.id, title: 'actor added bread', body: 'House To Get', url: '/house' });
      await trx.updateTable('users').set({ level: 1 }).where('id', '=', fam.id).execute();
    });
    expect(await reached(s, push.current, [actor, fam], 'house.added', from)).toEqual({ pushed: [], inbox: [] });
  });
});

describe.each(databases.filter((k) => k === 'postgres'))('notifications: two instances on one PostgreSQL (%s)', (kind) => {
  const s = useTestServer(kind, { PUSH_ALLOWED_HOSTS: '127.0.0.1' }, { watchChanges: true });
  const push = usePushService();

  it('never both send the same (event, device): each of 40 events reaches each of 5 devices once', async () => {
    const { rows } = await sql<{ db: string }>`select current_database() as db`.execute(s.db);
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    url.pathname = `/${rows[0]?.db ?? ''}`;
    const second = await createDb({ kind: 'postgres', url: url.toString() });
    const deps = createDeps(testConfig({ PUSH_ALLOWED_HOSTS: '127.0.0.1', DATABASE_URL: url.toString() }), second.db);
    const app = await buildApp(deps);
    await app.ready();
    try {
      const actor = await member(s, push.current, 'actor', 2);
      for (let i = 0; i < 5; i++) await member(s, push.current, `fam${i}`, 2);
      const from = push.current.received.length;
      for (let i = 0; i < 40; i++) await trpc(i % 2 ? s.app : app, 'house.add', actor.cookie, { task: `thing ${i}`, type: 'To Do' });
      await push.current.waitFor(from + 200, 30_000);
      await settled(s.db);
      const sent = push.current.received.slice(from).map((r) => `${r.message.id}/${r.subscriber}`);
      expect(sent.length).toBe(200);
      expect(new Set(sent).size).toBe(200);
    } finally {
      await app.close();
      await second.close();
    }
  });
});
