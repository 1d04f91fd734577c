import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { accessMessages, COMMENT_MAX, ON_THIS_DAY_MAX, pictureMessages, socialMessages, type Level, type OnThisDay, type PictureSocial } from '@site/contracts';
import * as repo from '../../src/areas/pictures/pictures.repository.ts';
import { daysOf, onThisDay } from '../../src/areas/pictures/pictures.on-this-day.ts';
import { socialOf } from '../../src/areas/pictures/pictures.social.ts';
import type { SessionUser } from '../../src/identity/session-user.ts';
import { callerFor, createUser, databases, useTestServer, type TestServer } from '../helpers.ts';
import { pictureRow, tempMediaDir } from './pictures.fixtures.ts';

function seed(s: TestServer, by: SessionUser | null, caption: string, date: [number, number, number], status: 'approved' | 'pending' = 'approved') {
  return repo.insertPicture(s.db, pictureRow(by, caption, date, status));
}

/** A tRPC call over HTTP: a query by GET, a mutation by POST; the answer's status, data and message. */
async function call(app: FastifyInstance, kind: 'query' | 'mutation', path: string, cookie: string | null, input?: unknown) {
  const headers = cookie ? { cookie } : {};
  const res =
    kind === 'query'
      ? await app.inject({
          method: 'GET',
          url: `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
          headers,
        })
      : await app.inject({ method: 'POST', url: `/trpc/${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(input ?? {}) });
  const json = res.json<{ result?: { data: unknown }; error?: { message: string } }>();
  return { status: res.statusCode, data: json.result?.data, message: json.error?.message };
}

const counts = async (s: TestServer) => {
  const row = await sql<{ hearts: number; comments: number }>`
    select (select count(*)::int from picture_hearts) as hearts, (select count(*)::int from picture_comments) as comments`.execute(s.db);
  return row.rows[0];
};

describe.each(databases)('hearts and comments (%s)', (kind) => {
  const s = useTestServer(kind, { MEDIA_DIR: tempMediaDir() });
  const members = async () => {
    const out = {} as Record<Level, SessionUser>;
    for (const level of [0, 1, 2, 3] as const) out[level] = await createUser(s.deps, `u${level}`, level);
    return out;
  };

  it('a Friend gives a heart once however often it is given, takes it back, and sees who gave them', async () => {
    const u = await members();
    const picture = await seed(s, u[2], 'beach', [2024, 7, 15]);
    const friend = callerFor(s.deps, u[1]);
    const family = callerFor(s.deps, u[2]);
    expect(await friend.pictures.heart({ id: picture.id, on: true })).toEqual({
      pictureId: picture.id,
      place: null,
      hearts: { count: 1, mine: true, names: ['u1'] },
      comments: [],
    });
    // On twice is one heart.
    expect((await friend.pictures.heart({ id: picture.id, on: true })).hearts).toEqual({ count: 1, mine: true, names: ['u1'] });
    await family.pictures.heart({ id: picture.id, on: true });
    expect((await family.pictures.social({ id: picture.id })).hearts).toEqual({ count: 2, mine: true, names: ['u1', 'u2'] });
    expect((await callerFor(s.deps, u[3]).pictures.social({ id: picture.id })).hearts).toEqual({ count: 2, mine: false, names: ['u1', 'u2'] });
    expect((await friend.pictures.heart({ id: picture.id, on: false })).hearts).toEqual({ count: 1, mine: false, names: ['u2'] });
    // Off twice is no heart, not an error.
    expect((await friend.pictures.heart({ id: picture.id, on: false })).hearts).toEqual({ count: 1, mine: false, names: ['u2'] });
    expect(await counts(s)).toEqual({ hearts: 1, comments: 0 });
  });

  it('comments carry author and time; the author edits and deletes their own, admins delete any but edit none', async () => {
    const u = await members();
    const picture = await seed(s, u[2], 'beach', [2024, 7, 15]);
    const friend = callerFor(s.deps, u[1]);
    const family = callerFor(s.deps, u[2]);
    const admin = callerFor(s.deps, u[3]);
    const before = Date.now();
    const first = await friend.pictures.comment({ id: picture.id, text: '  Lovely, Grandma!\nSo blue.  ' });
    expect(first.comments).toEqual([
      { id: expect.any(Number), author: 'u1', text: 'Lovely, Grandma!\nSo blue.', createdAt: expect.any(String), editedAt: null, mine: true, mayDelete: true },
    ]);
    const [c1] = first.comments;
    if (!c1) throw new Error('no comment');
    expect(Math.abs(Date.parse(c1.createdAt) - before)).toBeLessThan(60_000);
    const second = (await family.pictures.comment({ id: picture.id, text: 'Where is this?' })).comments[1];
    if (!second) throw new Error('no second comment');
    // What each reader may do with each comment.
    const flags = async (who: typeof friend) => (await who.pictures.social({ id: picture.id })).comments.map((c) => [c.author, c.mine, c.mayDelete]);
    expect(await flags(friend)).toEqual([['u1', true, true], ['u2', false, false]]);
    expect(await flags(admin)).toEqual([['u1', false, true], ['u2', false, true]]);

    // Edit: the author only, marked edited.
    await expect(family.pictures.editComment({ commentId: c1.id, text: 'mine now' })).rejects.toMatchObject({ code: 'FORBIDDEN', message: socialMessages.editOwnOnly });
    await expect(admin.pictures.editComment({ commentId: c1.id, text: 'mine now' })).rejects.toMatchObject({ code: 'FORBIDDEN', message: socialMessages.editOwnOnly });
    const edited = (await friend.pictures.editComment({ commentId: c1.id, text: 'Lovely!' })).comments[0];
    expect(edited).toMatchObject({ id: c1.id, text: 'Lovely!', createdAt: c1.createdAt, editedAt: expect.any(String) });

    // Delete: the author, or an admin; nobody else.
    await expect(friend.pictures.deleteComment({ commentId: second.id })).rejects.toMatchObject({ code: 'FORBIDDEN', message: socialMessages.deleteOwnOnly });
    expect((await admin.pictures.deleteComment({ commentId: second.id })).comments.map((c) => c.text)).toEqual(['Lovely!']);
    expect((await friend.pictures.deleteComment({ commentId: c1.id })).comments).toEqual([]);
    await expect(friend.pictures.deleteComment({ commentId: c1.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: socialMessages.commentNotFound });
    await expect(friend.pictures.editComment({ commentId: 999, text: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: socialMessages.commentNotFound });
    expect(await counts(s)).toEqual({ hearts: 0, comments: 0 });
  });

  it('refuses comment text the shared text type refuses, and bad ids, with readable messages, and writes nothing', async () => {
    const u = await members();
    const picture = await seed(s, u[2], 'beach', [2024, 7, 15]);
    const cookie = `sid=${(await s.deps.sessions.create(u[1].id)).token}`;
    const refusals: [string, string][] = [
      ['', 'Comment may not be empty'],
      ['   \n ', 'Comment may not be empty'],
      ['x'.repeat(COMMENT_MAX + 1), `Comment may be at most ${COMMENT_MAX} characters`],
      ['bell \u0007', 'Comment may not contain control characters'],
      ['nul \u0000', 'Comment may not contain control characters'],
      // What is shown must be what is stored: no direction overrides or isolates, no half characters, something to read.
      ['see gnp.\u202eexe', 'Comment may not contain invisible or direction-changing characters'],
      ['\u2067hidden\u2069', 'Comment may not contain invisible or direction-changing characters'],
      ['lone \ud83d half', 'Comment may not contain broken characters (half of an emoji or other symbol)'],
      ['\u200b\u200b \u2060', 'Comment must have something to read (not only invisible characters)'],
    ];
    for (const [text, message] of refusals) {
      const res = await call(s.app, 'mutation', 'pictures.comment', cookie, { id: picture.id, text });
      expect([res.status, res.message], JSON.stringify(text)).toEqual([400, message]);
    }
    // Emoji sequences and the direction marks of right-to-left writing are text people type.
    const typed = await call(s.app, 'mutation', 'pictures.comment', cookie, { id: picture.id, text: 'Lena 🧗‍♀️ مرحبا\u200f!' });
    expect(typed.status).toBe(200);
    await s.db.deleteFrom('picture_comments').execute();
    const ok = await call(s.app, 'mutation', 'pictures.comment', cookie, { id: picture.id, text: 'y'.repeat(COMMENT_MAX) });
    expect(ok.status).toBe(200);
    const commentId = (ok.data as PictureSocial).comments[0]?.id;
    const blank = await call(s.app, 'mutation', 'pictures.editComment', cookie, { commentId, text: ' ' });
    expect([blank.status, blank.message]).toEqual([400, 'Comment may not be empty']);
    const badIds: [string, unknown, string][] = [
      // The message names the field it is about, as for every input the shared formatter reads.
      ['pictures.heart', { id: 0, on: true }, `id: ${socialMessages.badId}`],
      ['pictures.heart', { id: 2 ** 31, on: true }, `id: ${socialMessages.badId}`],
      ['pictures.heart', { id: picture.id, on: 'yes' }, `on: ${socialMessages.badOn}`],
      ['pictures.comment', { id: 'one', text: 'hi' }, `id: ${socialMessages.badId}`],
      ['pictures.deleteComment', { commentId: 1.5 }, `commentId: ${socialMessages.badCommentId}`],
    ];
    for (const [path, input, message] of badIds) {
      const res = await call(s.app, 'mutation', path, cookie, input);
      expect([res.status, res.message], `${path} ${JSON.stringify(input)}`).toEqual([400, message]);
    }
    expect((await callerFor(s.deps, u[1]).pictures.social({ id: picture.id })).comments.map((c) => c.text.length)).toEqual([COMMENT_MAX]);
    expect(await counts(s)).toEqual({ hearts: 0, comments: 1 });
  });

  it('a pending picture: no hearts or comments but from admins; only its uploader and admins see them', async () => {
    const u = await members();
    const other = await createUser(s.deps, 'other', 1);
    const pending = await seed(s, u[1], 'waiting', [2024, 7, 15], 'pending');
    const uploader = callerFor(s.deps, u[1]);
    await expect(uploader.pictures.heart({ id: pending.id, on: true })).rejects.toMatchObject({ code: 'FORBIDDEN', message: socialMessages.pending });
    await expect(uploader.pictures.comment({ id: pending.id, text: 'mine' })).rejects.toMatchObject({ code: 'FORBIDDEN', message: socialMessages.pending });
    // Another member does not see the picture at all: the same answer as for none.
    for (const who of [callerFor(s.deps, other), callerFor(s.deps, u[2])]) {
      await expect(who.pictures.heart({ id: pending.id, on: true })).rejects.toMatchObject({ code: 'NOT_FOUND', message: pictureMessages.notFound });
      await expect(who.pictures.comment({ id: pending.id, text: 'hi' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: pictureMessages.notFound });
      await expect(who.pictures.social({ id: pending.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: pictureMessages.notFound });
    }
    const admin = callerFor(s.deps, u[3]);
    await admin.pictures.heart({ id: pending.id, on: true });
    const note = (await admin.pictures.comment({ id: pending.id, text: 'Approving after lunch' })).comments[0];
    if (!note) throw new Error('no comment');
    expect(await uploader.pictures.social({ id: pending.id })).toMatchObject({ hearts: { count: 1, names: ['u3'] }, comments: [{ text: 'Approving after lunch' }] });
    // A comment on a picture the member cannot see is no comment to them.
    await expect(callerFor(s.deps, other).pictures.deleteComment({ commentId: note.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: socialMessages.commentNotFound });
    await admin.pictures.approve({ id: pending.id });
    expect((await uploader.pictures.heart({ id: pending.id, on: true })).hearts).toMatchObject({ count: 2, mine: true });
    await expect(uploader.pictures.social({ id: 123456 })).rejects.toMatchObject({ code: 'NOT_FOUND', message: pictureMessages.notFound });
    await expect(uploader.pictures.heart({ id: 123456, on: true })).rejects.toMatchObject({ code: 'NOT_FOUND', message: pictureMessages.notFound });
  });

  it('a deleted picture takes its hearts and comments with it, and a deleted account its own', async () => {
    const u = await members();
    const gone = await seed(s, u[2], 'gone', [2024, 7, 15]);
    const kept = await seed(s, u[2], 'kept', [2024, 7, 16]);
    for (const who of [u[1], u[2]]) {
      for (const picture of [gone, kept]) {
        await callerFor(s.deps, who).pictures.heart({ id: picture.id, on: true });
        await callerFor(s.deps, who).pictures.comment({ id: picture.id, text: `${who.name} on ${picture.caption}` });
      }
    }
    expect(await counts(s)).toEqual({ hearts: 4, comments: 4 });
    await callerFor(s.deps, u[3]).pictures.delete({ id: gone.id });
    expect(await counts(s)).toEqual({ hearts: 2, comments: 2 });
    await s.db.deleteFrom('users').where('id', '=', u[1].id).execute();
    expect(await socialOf(s.db, kept.id, null)).toEqual({
      pictureId: kept.id,
      place: null,
      hearts: { count: 1, mine: false, names: ['u2'] },
      comments: [{ id: expect.any(Number), author: 'u2', text: 'u2 on kept', createdAt: expect.any(String), editedAt: null, mine: false, mayDelete: false }],
    });
  });
});

describe.each(databases)('hearts and comments over HTTP (%s)', (kind) => {
  const s = useTestServer(kind, { MEDIA_DIR: tempMediaDir() });

  it('refuses anonymous callers and pending accounts; Friends heart and comment, with the same messages as the service', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const picture = await seed(s, owner, 'beach', [2024, 7, 15]);
    const cookieOf = async (name: string, level: Level) => {
      const user = await createUser(s.deps, name, level);
      return `sid=${(await s.deps.sessions.create(user.id)).token}`;
    };
    const waiting = await cookieOf('waiting', 0);
    const friend = await cookieOf('friend', 1);
    const calls = [
      ['query', 'pictures.social', { id: picture.id }],
      ['mutation', 'pictures.heart', { id: picture.id, on: true }],
      ['mutation', 'pictures.comment', { id: picture.id, text: 'hello' }],
      ['mutation', 'pictures.editComment', { commentId: 1, text: 'hello' }],
      ['mutation', 'pictures.deleteComment', { commentId: 1 }],
      ['query', 'pictures.onThisDay', undefined],
    ] as const;
    for (const [kind, path, input] of calls) {
      expect(await call(s.app, kind, path, null, input), `${path} anonymous`).toMatchObject({ status: 401, message: accessMessages.signInRequired });
      expect(await call(s.app, kind, path, waiting, input), `${path} level 0`).toMatchObject({ status: 403, message: accessMessages.levelTooLow });
    }
    expect(await counts(s)).toEqual({ hearts: 0, comments: 0 });

    expect(await call(s.app, 'mutation', 'pictures.heart', friend, { id: picture.id, on: true })).toMatchObject({ status: 200, data: { hearts: { count: 1, mine: true, names: ['friend'] } } });
    const added = await call(s.app, 'mutation', 'pictures.comment', friend, { id: picture.id, text: 'Grandma looks great' });
    expect(added).toMatchObject({ status: 200, data: { comments: [{ author: 'friend', text: 'Grandma looks great', mine: true }] } });
    const long = await call(s.app, 'mutation', 'pictures.comment', friend, { id: picture.id, text: 'x'.repeat(COMMENT_MAX + 1) });
    expect([long.status, long.message]).toEqual([400, `Comment may be at most ${COMMENT_MAX} characters`]);
    const commentId = (added.data as PictureSocial).comments[0]?.id;
    const other = await cookieOf('other', 2);
    const stolen = await call(s.app, 'mutation', 'pictures.deleteComment', other, { commentId });
    expect([stolen.status, stolen.message]).toEqual([403, socialMessages.deleteOwnOnly]);
    const read = await call(s.app, 'query', 'pictures.social', other, { id: picture.id });
    expect(read).toMatchObject({ status: 200, data: { hearts: { count: 1, mine: false, names: ['friend'] }, comments: [{ text: 'Grandma looks great', mine: false, mayDelete: false }] } });
    expect(await counts(s)).toEqual({ hearts: 1, comments: 1 });
  });

  it('every rule over HTTP: hearts once, own comments only, admins delete any, pending pictures, deleted pictures', async () => {
    const cookieOf = async (name: string, level: Level) => {
      const user = await createUser(s.deps, name, level);
      return { user, cookie: `sid=${(await s.deps.sessions.create(user.id)).token}` };
    };
    const owner = await cookieOf('owner', 3);
    const ann = await cookieOf('ann', 1);
    const bob = await cookieOf('bob', 2);
    const picture = await seed(s, owner.user, 'beach', [2024, 7, 15]);
    const heart = (who: string, on: boolean, id = picture.id) => call(s.app, 'mutation', 'pictures.heart', who, { id, on });
    // On twice is one heart.
    expect((await heart(ann.cookie, true)).data).toMatchObject({ hearts: { count: 1, mine: true } });
    expect((await heart(ann.cookie, true)).data).toMatchObject({ hearts: { count: 1, mine: true, names: ['ann'] } });
    const said = (await call(s.app, 'mutation', 'pictures.comment', ann.cookie, { id: picture.id, text: 'Ann was here' })).data as PictureSocial;
    const annComment = said.comments[0]?.id;
    // Bob (Family) may neither edit nor delete Ann's comment; the owner (admin) may delete but not edit it.
    expect(await call(s.app, 'mutation', 'pictures.editComment', bob.cookie, { commentId: annComment, text: 'Bob now' })).toMatchObject({ status: 403, message: socialMessages.editOwnOnly });
    expect(await call(s.app, 'mutation', 'pictures.deleteComment', bob.cookie, { commentId: annComment })).toMatchObject({ status: 403, message: socialMessages.deleteOwnOnly });
    expect(await call(s.app, 'mutation', 'pictures.editComment', owner.cookie, { commentId: annComment, text: 'Owner now' })).toMatchObject({ status: 403, message: socialMessages.editOwnOnly });
    expect(await call(s.app, 'mutation', 'pictures.editComment', ann.cookie, { commentId: annComment, text: 'Ann, edited' })).toMatchObject({
      status: 200,
      data: { comments: [{ text: 'Ann, edited', editedAt: expect.any(String) }] },
    });
    expect(await call(s.app, 'mutation', 'pictures.deleteComment', owner.cookie, { commentId: annComment })).toMatchObject({ status: 200, data: { comments: [] } });

    // A pending picture: its uploader (a Friend) may not heart it, another member does not see it, an admin may.
    const waiting = await seed(s, ann.user, 'waiting', [2024, 7, 16], 'pending');
    expect(await heart(ann.cookie, true, waiting.id)).toMatchObject({ status: 403, message: socialMessages.pending });
    expect(await heart(bob.cookie, true, waiting.id)).toMatchObject({ status: 404, message: pictureMessages.notFound });
    expect(await call(s.app, 'mutation', 'pictures.comment', bob.cookie, { id: waiting.id, text: 'hi' })).toMatchObject({ status: 404, message: pictureMessages.notFound });
    expect(await heart(owner.cookie, true, waiting.id)).toMatchObject({ status: 200, data: { hearts: { count: 1, names: ['owner'] } } });

    // A deleted picture takes its hearts and comments; asking after it is "does not exist".
    await call(s.app, 'mutation', 'pictures.comment', bob.cookie, { id: picture.id, text: 'Bob was here' });
    expect(await counts(s)).toEqual({ hearts: 2, comments: 1 });
    expect((await call(s.app, 'mutation', 'pictures.delete', owner.cookie, { id: picture.id })).status).toBe(200);
    expect(await counts(s)).toEqual({ hearts: 1, comments: 0 });
    expect(await call(s.app, 'query', 'pictures.social', ann.cookie, { id: picture.id })).toMatchObject({ status: 404, message: pictureMessages.notFound });
    expect(await heart(ann.cookie, true)).toMatchObject({ status: 404, message: pictureMessages.notFound });
  });

  it("On this day over HTTP reads the server's own clock", async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const now = new Date();
    const { year, days } = daysOf(now);
    const [month, day] = days[0] ?? [1, 1];
    // A year earlier has today's date, save for 29 February (then four years earlier).
    const earlier = month === 2 && day === 29 ? year - 4 : year - 1;
    const picture = await seed(s, owner, 'a year ago', [earlier, month, day]);
    await seed(s, owner, 'today', [year, month, day]);
    const friend = await createUser(s.deps, 'friend', 1);
    const cookie = `sid=${(await s.deps.sessions.create(friend.id)).token}`;
    const res = await call(s.app, 'query', 'pictures.onThisDay', cookie);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ month, day, total: 1, pictures: [{ id: picture.id, caption: 'a year ago', year: earlier, yearsAgo: year - earlier }] });
  });
});

describe.each(databases)('On this day (%s)', (kind) => {
  const s = useTestServer(kind, { MEDIA_DIR: tempMediaDir() });
  const captions = (answer: OnThisDay) => answer.pictures.map((p) => p.caption);

  it("lists approved pictures of today's month and day in earlier years only, newest year first", async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    const friend = await createUser(s.deps, 'friend', 1);
    const older = await seed(s, owner, '2020', [2020, 7, 15]);
    await seed(s, owner, '2024', [2024, 7, 15]);
    await seed(s, owner, 'this year', [2026, 7, 15]);
    await seed(s, owner, 'next year', [2027, 7, 15]);
    await seed(s, owner, 'no day', [2021, 7, 0]);
    await seed(s, owner, 'no month', [2021, 0, 0]);
    await seed(s, owner, 'no date', [0, 0, 0]);
    await seed(s, owner, 'the day after', [2022, 7, 16]);
    await seed(s, owner, 'another month', [2022, 6, 15]);
    await seed(s, friend, 'pending', [2019, 7, 15], 'pending');
    const now = new Date(2026, 6, 15, 12, 0);
    const answer = await onThisDay(s.deps, friend, now);
    expect(captions(answer)).toEqual(['2024', '2020']);
    expect(answer).toMatchObject({ month: 7, day: 15, total: 2 });
    expect(answer.pictures[1]).toEqual({
      id: older.id,
      caption: '2020',
      year: 2020,
      yearsAgo: 6,
      kind: 'image',
      thumb: null,
      link: expect.stringMatching(new RegExp(`^/personal/pictures/month/\\d+\\?picture=${older.id}$`)),
    });
    // The link opens the month page that holds the picture.
    const link = answer.pictures[1]?.link ?? '';
    const monthPage = Number(/month\/(\d+)/.exec(link)?.[1]);
    const page = await callerFor(s.deps, friend).pictures.page({ type: 'month', index: monthPage });
    expect([page.label, page.pictures.map((p) => p.id)]).toEqual(['July 2020', [older.id]]);
    // A day with none: nothing to show.
    expect(await onThisDay(s.deps, friend, new Date(2026, 6, 17, 12))).toEqual({ month: 7, day: 17, total: 0, pictures: [] });
    // The first second of the day and the last are the same day.
    expect(captions(await onThisDay(s.deps, friend, new Date(2026, 6, 15, 0, 0, 0)))).toEqual(['2024', '2020']);
    expect(captions(await onThisDay(s.deps, friend, new Date(2026, 6, 15, 23, 59, 59)))).toEqual(['2024', '2020']);
  });

  it('29 February comes back on 28 February of years without one, and on its own day in leap years', async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    await seed(s, owner, 'leap day', [2024, 2, 29]);
    await seed(s, owner, 'the 28th', [2023, 2, 28]);
    await seed(s, owner, 'March', [2023, 3, 1]);
    const on = async (y: number, m: number, d: number) => captions(await onThisDay(s.deps, owner, new Date(y, m - 1, d, 12)));
    expect(await on(2027, 2, 28)).toEqual(['leap day', 'the 28th']);
    expect(await on(2027, 3, 1)).toEqual(['March']);
    expect(await on(2028, 2, 28)).toEqual(['the 28th']);
    expect(await on(2028, 2, 29)).toEqual(['leap day']);
    expect(await on(2100, 2, 28)).toEqual(['leap day', 'the 28th']);
  });

  it(`shows at most ${ON_THIS_DAY_MAX} and says how many there are; thumbnails once made`, async () => {
    const owner = await createUser(s.deps, 'owner', 3);
    for (let year = 2000; year < 2000 + ON_THIS_DAY_MAX + 3; year++) await seed(s, owner, String(year), [year, 3, 9]);
    const newest = await seed(s, owner, 'newest', [2020, 3, 9]);
    await s.db.updateTable('pictures').set({ thumb_status: 'ready' }).where('id', '=', newest.id).execute();
    const answer = await onThisDay(s.deps, owner, new Date(2030, 2, 9, 8));
    expect(answer.total).toBe(ON_THIS_DAY_MAX + 4);
    expect(answer.pictures).toHaveLength(ON_THIS_DAY_MAX);
    expect(answer.pictures[0]).toMatchObject({ caption: 'newest', year: 2020, yearsAgo: 10, thumb: `/private/pictures/${newest.stem}.thumb.webp` });
    expect(answer.pictures.slice(1).map((p) => p.year)).toEqual(Array.from({ length: ON_THIS_DAY_MAX - 1 }, (_, i) => 2014 - i));
  });
});
