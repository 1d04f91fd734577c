import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { addDays, mondayOf, todayIn, type RecipeInput } from '@site/contracts';
import { accountCommand } from '../../src/areas/auth/commands.ts';
import { callerFor, cookieFor, createUser, databases, sessionCookie } from '../helpers.ts';
import { usePlanServer, ZONE } from './plan-server.ts';
const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** The wall-clock date and time an instant is in Oslo: '2026-11-24 18:30'. */
const inOslo = (instant: Date) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(instant);

const LONG_TITLE = `Grandma's 🍝 lasagne, with béchamel; ${'and more '.repeat(30)}`.slice(0, 200);

describe.each(databases)('calendar feed (%s)', (kind) => {
  const s = usePlanServer(kind);

  async function planned() {
    const owner = await createUser(s.deps, 'Zoë 🌻', 3);
    const ben = await createUser(s.deps, 'Ben', 2);
    const zoe = callerFor(s.deps, owner);
    const start = mondayOf(todayIn(ZONE));
    const lasagne = await zoe.recipes.create({ title: LONG_TITLE, servings: 4, steps: [{ instructions: 'Bake.' }] } satisfies RecipeInput);
    await zoe.plan.set({ date: addDays(start, 8), meal: 'Dinner', recipeId: lasagne.recipe_id, cook: 'Ben', servings: 6 });
    await zoe.plan.set({ date: addDays(start, 9), meal: 'Breakfast', text: 'Pancakes, syrup; 🥞 \\ more' });
    const mine = await zoe.chores.create({ name: 'Bins, recycling; 🗑️', every: { days: 7 }, who: { one: 'Zoë 🌻' } });
    const bens = await zoe.chores.create({ name: 'Hoover', every: { days: 7 }, who: { one: 'Ben' } });
    return { zoe, ben, start, mine, bens };
  }

  /** A calendar app's request for the address it was given (its Host is the address's). */
  const get = (url: string, headers: Record<string, string> = {}) => s.app.inject({ method: 'GET', url: new URL(url).pathname, headers: { host: new URL(url).host, ...headers } });

  it('serves a member feed both parsers read: VERSION, PRODID, stable UIDs, UTC times and all-day chores, escaped and folded', async () => {
    const { zoe, start, mine, bens } = await planned();
    expect(await zoe.calendar.feed()).toEqual({ url: null, createdAt: null, everyone: false });
    const made = await zoe.calendar.reset();
    expect(made.url).toMatch(/^http:\/\/[^/]+\/calendar\/cal_[A-Za-z0-9_-]{43}\.ics$/);
    // Kept as a hash: the address is not shown again.
    expect(await zoe.calendar.feed()).toEqual({ url: null, createdAt: made.createdAt, everyone: false });
    const stored = await s.db.selectFrom('calendar_feeds').select('token_hash').executeTakeFirstOrThrow();
    expect(made.url!).not.toContain(stored.token_hash);

    const res = await get(made.url!);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('inline; filename="family-week.ics"');
    const body = res.body;
    // CRLF everywhere, and no line longer than 75 octets.
    expect(body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(body.split('\r\n').filter((line) => Buffer.byteLength(line) > 75)).toEqual([]);
    expect(body).toContain('VERSION:2.0\r\n');
    expect(body).toContain('PRODID:-//Family website//Week planner//EN\r\n');
    // Escaped TEXT: a comma and a semicolon in a summary.
    expect(body.replace(/\r\n /g, '')).toContain('SUMMARY:Breakfast: Pancakes\\, syrup\\; 🥞 \\\\ more');

    // ical.js
    const component = new ICAL.Component(ICAL.parse(body));
    expect(component.getFirstPropertyValue('version')).toBe('2.0');
    const events = component.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    const summaries = events.map((e) => e.summary);
    expect(summaries).toContain(`Dinner: ${LONG_TITLE}`);
    expect(summaries).toContain('Breakfast: Pancakes, syrup; 🥞 \\ more');
    expect(summaries).toContain('Bins, recycling; 🗑️');
    // Only her own chores, by default.
    expect(summaries).not.toContain('Hoover');
    const dinner = events.find((e) => e.summary.startsWith('Dinner'))!;
    expect(dinner.startDate.zone?.tzid).toBe('UTC');
    expect(inOslo(dinner.startDate.toJSDate())).toBe(`${addDays(start, 8)} 18:30`);
    expect(dinner.endDate.toJSDate().getTime() - dinner.startDate.toJSDate().getTime()).toBe(3600_000);
    expect(dinner.description).toBe('Ben cooks\n6 servings');
    const breakfast = events.find((e) => e.summary.startsWith('Breakfast'))!;
    expect(inOslo(breakfast.startDate.toJSDate())).toBe(`${addDays(start, 9)} 08:00`);
    const bins = events.filter((e) => e.summary === 'Bins, recycling; 🗑️');
    expect(bins[0]!.startDate.isDate).toBe(true);
    expect(bins[0]!.startDate.toString()).toBe(todayIn(ZONE));
    expect(bins[1]!.startDate.toString()).toBe(addDays(todayIn(ZONE), 7));
    const host = new URL(made.url!).hostname;
    expect(new Set(events.map((e) => e.uid)).size).toBe(events.length);
    expect(bins[0]!.uid).toBe(`chore-${mine.id}-${todayIn(ZONE).replaceAll('-', '')}@${host}`);
    expect(dinner.uid).toMatch(new RegExp(`^meal-\\d+@${host.replaceAll('.', '\\.')}$`));
    for (const v of component.getAllSubcomponents('vevent')) expect(v.getFirstPropertyValue('dtstamp')).toBeTruthy();
    // Never floating: every time is UTC (Z) or a date.
    expect(body.split('\r\n').filter((l) => /^DT(START|END)[:;]/.test(l) && !/Z$/.test(l) && !/VALUE=DATE:\d{8}$/.test(l))).toEqual([]);

    // Python's icalendar, from a file.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'feed-'));
    try {
      fs.writeFileSync(path.join(dir, 'feed.ics'), body);
      const parsed = JSON.parse(execFileSync(PYTHON, [path.join(import.meta.dirname, 'parse-ics.py'), path.join(dir, 'feed.ics')], { encoding: 'utf8', timeout: 20_000 })) as {
        version: string;
        prodid: string;
        events: { uid: string; summary: string; start: string; utc: boolean; stamp: string }[];
      };
      expect(parsed.version).toBe('2.0');
      expect(parsed.prodid).toBe('-//Family website//Week planner//EN');
      expect(parsed.events.map((e) => e.uid).sort()).toEqual(events.map((e) => e.uid).sort());
      const pyDinner = parsed.events.find((e) => e.uid === dinner.uid)!;
      expect(pyDinner).toMatchObject({ summary: `Dinner: ${LONG_TITLE}`, utc: true });
      expect(inOslo(new Date(pyDinner.start))).toBe(`${addDays(start, 8)} 18:30`);
      expect(parsed.events.find((e) => e.uid === bins[0]!.uid)).toMatchObject({ summary: 'Bins, recycling; 🗑️', start: todayIn(ZONE), utc: false });
      expect(parsed.events.find((e) => e.summary.startsWith('Breakfast'))!.summary).toBe('Breakfast: Pancakes, syrup; 🥞 \\ more');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }

    // Everyone's chores, when she chooses, named with whose they are.
    await zoe.calendar.settings({ everyone: true });
    const all = new ICAL.Component(ICAL.parse((await get(made.url!)).body)).getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(all.find((e) => e.uid.startsWith(`chore-${bens.id}-`))?.summary).toBe('Hoover (Ben)');
  });

  it('answers 304 to a poll with its ETag or a date since it last changed, and a new body once anything changes', async () => {
    const { zoe, start } = await planned();
    const { url } = await zoe.calendar.reset();
    const first = await get(url!);
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(new Date(lastModified).toUTCString()).toBe(lastModified);
    const again = await get(url!, { 'if-none-match': etag });
    expect([again.statusCode, again.body]).toEqual([304, '']);
    expect((await get(url!, { 'if-modified-since': lastModified })).statusCode).toBe(304);
    expect((await get(url!)).headers.etag).toBe(etag);

    await zoe.plan.set({ date: addDays(start, 10), meal: 'Lunch', text: 'Soup' });
    const changed = await get(url!, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body).toContain('SUMMARY:Lunch: Soup');
  });

  it('refuses a reset address at once, an unknown token and a wrong name with 404; only levels 2 and 3 manage a feed', async () => {
    const { zoe } = await planned();
    const old = (await zoe.calendar.reset()).url!;
    const fresh = (await zoe.calendar.reset()).url!;
    expect(fresh).not.toBe(old);
    expect((await get(old)).statusCode).toBe(404);
    expect((await get(old)).json()).toEqual({ message: 'No such calendar' });
    expect((await get(fresh)).statusCode).toBe(200);
    expect((await get(fresh.replace('.ics', '.txt'))).statusCode).toBe(404);
    expect((await s.app.inject({ method: 'GET', url: '/calendar/cal_short.ics' })).statusCode).toBe(404);
    for (const level of [0, 1] as const) {
      const res = await s.app.inject({ method: 'POST', url: '/trpc/calendar.reset', headers: { cookie: await cookieFor(s.deps, level), 'content-type': 'application/json' }, payload: '{}' });
      expect(res.statusCode).toBe(403);
    }
    expect((await s.app.inject({ method: 'POST', url: '/trpc/calendar.reset', headers: { 'content-type': 'application/json' }, payload: '{}' })).statusCode).toBe(401);
  });

  /** A tRPC POST over HTTP with a session cookie: status and the error's message. */
  const post = async (path: string, cookie: string, input: unknown) => {
    const res = await s.app.inject({ method: 'POST', url: `/trpc/${path}`, headers: { cookie, 'content-type': 'application/json' }, payload: JSON.stringify(input) });
    return { status: res.statusCode, message: (res.json() as { error?: { message?: string } }).error?.message };
  };
  const login = async (name: string, password: string) =>
    sessionCookie(await s.app.inject({ method: 'POST', url: '/trpc/auth.login', headers: { 'content-type': 'application/json' }, payload: { name, password } }))!;

  it("follows its maker's level on every request: 404 while lowered to friend or pending, working again once raised", async () => {
    const { zoe, start } = await planned();
    const admin = await cookieFor(s.deps, 3, 'Boss');
    const ben = await createUser(s.deps, 'Ben B', 2);
    const { url } = await callerFor(s.deps, ben).calendar.reset();
    expect((await get(url!)).statusCode).toBe(200);
    for (const level of [1, 0]) {
      expect(await post('admin.setLevel', admin, { name: 'Ben B', level })).toEqual({ status: 200, message: undefined });
      // Something planned after the lowering is not served either.
      await zoe.plan.set({ date: addDays(start, 11 + level), meal: 'Lunch', text: `Lunch ${level}` });
      const res = await get(url!);
      expect([res.statusCode, res.json()]).toEqual([404, { message: 'No such calendar' }]);
      expect(res.body).not.toContain('Lunch');
    }
    expect((await post('admin.setLevel', admin, { name: 'Ben B', level: 2 })).status).toBe(200);
    const back = await get(url!);
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain('SUMMARY:Lunch: Lunch 1');
  });

  it('ends its address when the account is reset: a reset link used (made by an admin or by the owner), a password change removing the keys', async () => {
    await planned();
    const admin = await cookieFor(s.deps, 3, 'Boss');
    const mia = await createUser(s.deps, 'Mia', 2);
    const newFeed = async () => {
      const { url } = await callerFor(s.deps, mia).calendar.reset();
      expect((await get(url!)).statusCode).toBe(200);
      return url!;
    };
    const useLink = async (path: string, password: string) => {
      expect((await post('auth.resetPassword', '', { token: path.split('#')[1], newPassword: password, confirmPassword: password })).status).toBe(200);
    };

    // A reset link an admin made on /admin, used.
    let url = await newFeed();
    const made = await s.app.inject({ method: 'POST', url: '/trpc/admin.resetLink', headers: { cookie: admin, 'content-type': 'application/json' }, payload: { name: 'Mia' } });
    await useLink((made.json() as { result: { data: { path: string } } }).result.data.path, 'a fresh secret');
    expect((await get(url)).statusCode).toBe(404);
    expect(await s.db.selectFrom('calendar_feeds').select('user_id').where('user_id', '=', mia.id).execute()).toEqual([]);

    // The owner's reset of the account on the server machine (`npm run user -- reset-link Mia`), used.
    url = await newFeed();
    await useLink((await accountCommand(s.deps, 'reset-link', ['Mia'])).at(-1)!, 'an owner secret');
    expect((await get(url)).statusCode).toBe(404);

    // A password change with "also remove my passkeys and tokens" (the default) ends it; unticked, it stays.
    url = await newFeed();
    const cookie = await login('Mia', 'an owner secret');
    expect((await post('auth.changePassword', cookie, { currentPassword: 'an owner secret', newPassword: 'a third secret', confirmPassword: 'a third secret', removeKeys: false })).status).toBe(200);
    expect((await get(url)).statusCode).toBe(200);
    expect((await post('auth.changePassword', cookie, { currentPassword: 'a third secret', newPassword: 'a fourth secret', confirmPassword: 'a fourth secret' })).status).toBe(200);
    expect((await get(url)).statusCode).toBe(404);
  });
});
