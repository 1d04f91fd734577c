import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { accessMessages, ACCOUNT_LEVELS, READ_ONLY_SCOPE, scopeAreas, scopeMessages, type Level } from '@site/contracts';
import { issueToken } from '../../src/areas/auth/api-tokens.service.ts';
import { accountCommand } from '../../src/areas/auth/commands.ts';
import { createUser, databases, sessionCookie, TEST_PASSWORD, useTestServer } from '../helpers.ts';

type Answer = { status: number; message: string | undefined; data: unknown };

async function call(app: FastifyInstance, token: string, path: string, input?: unknown): Promise<Answer> {
  const isQuery = input === undefined;
  const res = await app.inject({
    method: isQuery ? 'GET' : 'POST',
    url: `/trpc/${path}`,
    headers: { authorization: `Bearer ${token}`, ...(isQuery ? {} : { 'content-type': 'application/json' }) },
    ...(isQuery ? {} : { payload: JSON.stringify(input) }),
  });
  const json = res.json();
  return { status: res.statusCode, message: json.error?.message ?? json.message, data: json.result?.data };
}

async function get(app: FastifyInstance, token: string, url: string) {
  const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  return { status: res.statusCode, message: String(res.headers['content-type'] ?? '').includes('json') ? (res.json().message as string | undefined) : undefined };
}

const levelTooLow = [403, accessMessages.levelTooLow];
const missing = (scope: string) => [403, scopeMessages.missing(scope)];

describe.each(databases)('personal API token scopes (%s)', (kind) => {
  const s = useTestServer(kind);

  async function tokenOf(level: Level, scopes: string[] | null) {
    const user = await createUser(s.deps, `member${level}`, level);
    return (await issueToken(s.deps, user.id, 'Script', scopes)).token;
  }

  it.each(ACCOUNT_LEVELS)('at level %i, a read-only token reads what the level allows and writes nothing', async (level) => {
    const token = await tokenOf(level, [READ_ONLY_SCOPE]);
    const seen = async (path: string, input?: unknown) => {
      const a = await call(s.app, token, path, input);
      return [a.status, a.status === 200 ? 'ok' : a.message];
    };
    expect(await seen('auth.devices')).toEqual([200, 'ok']);
    expect(await seen('todo.list')).toEqual(level >= 1 ? [200, 'ok'] : levelTooLow);
    // The level is checked first: a scope never lets a token past its member.
    expect(await seen('todo.add', { task: 'Milk' })).toEqual(level >= 1 ? missing('todo:write') : levelTooLow);
    expect(await seen('house.add', { task: 'Plant food', type: 'To Get' })).toEqual(level >= 2 ? missing('house:write') : levelTooLow);
    expect(await seen('admin.users')).toEqual(level >= 3 ? [200, 'ok'] : levelTooLow);
    expect(await s.db.selectFrom('todo_tasks').select('id').execute()).toEqual([]);
  });

  it.each([1, 2, 3] as const)('at level %i, an area scope lets through its own reads or writes only, on /trpc and /api', async (level) => {
    const token = await tokenOf(level, ['todo:write']);
    const added = await call(s.app, token, 'todo.add', { task: 'Milk' });
    expect(added.status).toBe(200);
    const list = await call(s.app, token, 'todo.list');
    expect([list.status, list.message]).toEqual(missing('todo:read'));
    const viaApi = await s.app.inject({ method: 'POST', url: '/api/todo/get', headers: { authorization: `Bearer ${token}` } });
    expect([viaApi.statusCode, viaApi.json().message]).toEqual(missing('todo:read'));
    const addViaApi = await s.app.inject({ method: 'POST', url: '/api/todo/add', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: { task: 'Eggs' } });
    expect(addViaApi.statusCode).toBe(200);
    // Public procedures too: a scoped token speaks only for its areas.
    const status = await call(s.app, token, 'auth.status');
    expect([status.status, status.message]).toEqual(missing('auth:read'));
    expect((await call(s.app, token, 'settings.colors')).message).toBe(scopeMessages.missing('settings:read'));
  });

  it('checks the HTTP routes by their area: GET reads, other methods write, a route of no area needs every right', async () => {
    const ytdlReader = await tokenOf(1, ['ytdl:read']);
    const other = (await issueToken(s.deps, (await s.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id, 'Other', ['todo:read'])).token;
    // Past the gate, the route itself refuses a job id that is not one.
    expect((await get(s.app, ytdlReader, '/api/ytdl/file/abc')).status).toBe(400);
    expect(await get(s.app, other, '/api/ytdl/file/abc')).toEqual({ status: 403, message: scopeMessages.missing('ytdl:read') });
    const download = await s.app.inject({ method: 'POST', url: '/api/ytdl/download', headers: { authorization: `Bearer ${ytdlReader}`, 'content-type': 'application/json' }, payload: { url: 'https://example.org/v' } });
    expect([download.statusCode, download.json().message]).toEqual(missing('ytdl:write'));
    expect(await get(s.app, ytdlReader, '/events')).toEqual({ status: 403, message: scopeMessages.everything });
  });

  it('makes scoped tokens from the browser, lists their scopes and refuses unknown ones', async () => {
    await createUser(s.deps, 'ann', 1);
    const login = await s.app.inject({ method: 'POST', url: '/trpc/auth.login', headers: { 'content-type': 'application/json' }, payload: { name: 'ann', password: TEST_PASSWORD } });
    const cookie = sessionCookie(login) ?? '';
    const make = (body: unknown) => s.app.inject({ method: 'POST', url: '/trpc/auth.createToken', headers: { cookie, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    expect((await make({ label: 'Shopping', scopes: ['todo:read', 'house:write'] })).json().result.data.scopes).toEqual(['todo:read', 'house:write']);
    expect((await make({ label: 'Everything' })).json().result.data.scopes).toBeNull();
    const bad = await make({ label: 'Bad', scopes: ['nowhere:read'] });
    expect([bad.statusCode, bad.json().error.message]).toEqual([400, `scopes.0: ${scopeMessages.unknown}`]);
    const none = await make({ label: 'None', scopes: [] });
    expect([none.statusCode, none.json().error.message]).toEqual([400, `scopes: ${scopeMessages.none}`]);
    const list = await s.app.inject({ method: 'GET', url: '/trpc/auth.tokens', headers: { cookie } });
    expect(list.json().result.data.map((t: { label: string; scopes: unknown }) => [t.label, t.scopes])).toEqual([
      ['Everything', null],
      ['Shopping', ['todo:read', 'house:write']],
    ]);
  });

  it('`npm run user -- token NAME --scope todo:read` makes a token of that scope', async () => {
    await createUser(s.deps, 'ann', 1);
    const lines = await accountCommand(s.deps, 'token', ['ann', '--scope', 'todo:read', '--label', 'Fridge']);
    expect(lines[0]).toBe('A personal API token for ann (label "Fridge"), acting at the account\'s level with the scopes todo:read; it is shown only now.');
    const token = lines[1]?.split(' ').pop() ?? '';
    expect((await call(s.app, token, 'todo.list')).status).toBe(200);
    expect((await call(s.app, token, 'todo.add', { task: 'Milk' })).message).toBe(scopeMessages.missing('todo:write'));
    await expect(accountCommand(s.deps, 'token', ['ann', '--scope', 'todo:delete'])).rejects.toThrow(scopeMessages.unknown);
  });

  it('offers a scope for every area a token may call', () => {
    expect(scopeAreas).toEqual(expect.arrayContaining(['todo', 'house', 'pictures', 'recipes', 'admin', 'ytdl']));
  });
});
