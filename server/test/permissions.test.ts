import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import {
  accessMessages,
  allows,
  ACCOUNT_LEVELS,
  httpRoutes,
  legacyApi,
  needsBrowser,
  procedures,
  type HttpRoutePath,
  type HttpRow,
  type Level,
  type ProcedureAccess,
  type ProcedurePath,
} from '@site/contracts';
import { splitKey } from '../src/http/routes.ts';
import { samples } from './area-tables.ts';
import { createContextInner } from '../src/trpc/context.ts';
import { findProcedure, invoke } from '../src/trpc/invoke.ts';
import { appRouter } from '../src/router.ts';
import { cookieFor, createUser, databases, rawRequest, rawStreamStart, useListeningServer, useTestServer, type RawResponse } from './helpers.ts';

// `samples` (test/area-tables.ts) holds a valid input per procedure, typed over the whole permission
// table: a procedure added there fails the typecheck until its area's samples cover it.
const gateMessages: string[] = [accessMessages.signInRequired, accessMessages.levelTooLow];
const viewers: (Level | null)[] = [null, ...ACCOUNT_LEVELS];

/** The ports a rule is checked on: the default one, and the port it opens on (8443) if it names one. */
function portsOf(rule: ProcedureAccess | HttpRow): (number | undefined)[] {
  return typeof rule === 'object' && rule.alsoOnPort !== undefined ? [undefined, rule.alsoOnPort] : [undefined];
}

describe('the permission table', () => {
  it('has exactly one procedure per entry, built for that entry', () => {
    expect(Object.keys(appRouter._def.procedures).sort()).toEqual(Object.keys(procedures).sort());
  });

  it('marks every change to an account, and only those, as needing a signed-in browser (never a token)', () => {
    const browserOnly = (Object.keys(procedures) as ProcedurePath[]).filter((path) => needsBrowser(procedures[path])).sort();
    expect(browserOnly).toEqual([
      'admin.resetLink',
      'admin.setLevel',
      'auth.addPasskey',
      'auth.changePassword',
      'auth.confirmPasskey',
      'auth.confirmPassword',
      'auth.passkeyRegistrationOptions',
      'auth.removePasskey',
      'auth.renamePasskey',
      'auth.revokeToken',
      'auth.signOutDevice',
      'auth.signOutOthers',
      'auth.createToken',
    ].sort());
  });
});

function rawOf(res: { statusCode: number; headers: Record<string, unknown>; body: string }): RawResponse {
  return { status: res.statusCode, headers: res.headers as RawResponse['headers'], body: res.body };
}

/** A refusal by the table's gate (not the handler's own answer to a sample input). */
function isGateRefusal(res: RawResponse): boolean {
  if (!String(res.headers['content-type'] ?? '').includes('json')) return false;
  // A HEAD answer has no body (the resumable uploads' HEAD rows): the gate's statuses are all it says.
  if (res.body === '') return res.status === 401 || res.status === 403;
  const json = JSON.parse(res.body) as { message?: string; error?: { message?: string } };
  const message = json.message ?? json.error?.message;
  return message !== undefined && gateMessages.includes(message);
}

describe.each(databases)('permission matrix (%s)', (kind) => {
  const s = useTestServer(kind);
  const listening = useListeningServer(s);
  const paths = Object.keys(procedures) as ProcedurePath[];

  // One test per procedure, called as anonymous and at every level (one database reset, not five),
  // and again on the port a rule names (8443), as the browser's address gives it. A member calls with
  // a session cookie; a change to an account is also called with the member's API token, which the
  // gate refuses at every level.
  it.each(paths)('%s at anonymous and levels 0-3', async (path) => {
    // Some account must exist so that sign-ups are not the first (owner) one.
    await createUser(s.deps, 'existing', 3);
    const rule = procedures[path];
    for (const level of viewers) {
      const user = level === null ? null : await createUser(s.deps, `viewer${level}`, level);
      const sessionHash = user ? (await s.deps.sessions.create(user.id)).tokenHash : null;
      if (user && needsBrowser(rule)) {
        const byToken = createContextInner(s.deps, { user });
        const refusal = await invoke(path, byToken, samples[path]).then(() => undefined, (error: unknown) => error);
        const who = `${path} as a level ${level} token`;
        expect(refusal, who).toBeInstanceOf(TRPCError);
        const expected = allows(rule, byToken.viewer) ? accessMessages.browserOnly : accessMessages.levelTooLow;
        expect([(refusal as TRPCError).code, (refusal as TRPCError).message], who).toEqual(['FORBIDDEN', expected]);
      }
      for (const port of portsOf(rule)) {
        const ctx = createContextInner(s.deps, { user, sessionHash, port: () => port });
        const allowed = allows(rule, ctx.viewer, port);
        let refusal: TRPCError | undefined;
        try {
          await invoke(path, ctx, samples[path]);
        } catch (error) {
          if (!(error instanceof TRPCError)) throw error;
          if (gateMessages.includes(error.message) || error.message === accessMessages.browserOnly) refusal = error;
          else expect(error.code, `${path} as ${level ?? 'anonymous'}`).not.toBe('INTERNAL_SERVER_ERROR');
        }
        const who = `${path} as ${level === null ? 'anonymous' : `level ${level}`}${port ? ` on port ${port}` : ''}`;
        if (allowed) expect(refusal, who).toBeUndefined();
        else expect(refusal?.code, who).toBe(level === null ? 'UNAUTHORIZED' : 'FORBIDDEN');
      }
    }
  });

  // The routes that are not tRPC, through HTTP with the same rule: 401 signed out, 403 below the level.
  const routeKeys = Object.keys(httpRoutes) as HttpRoutePath[];
  it.each(routeKeys.length > 0 ? routeKeys : ['(no HTTP routes yet)'])('%s at anonymous and levels 0-3', async (key) => {
    if (!Object.hasOwn(httpRoutes, key)) return;
    const row = httpRoutes[key as HttpRoutePath] as HttpRow;
    const [method, pattern] = splitKey(key);
    const url = pattern.replace(/:[A-Za-z_]+/g, 'sample').replace(/\*/g, 'sample');
    await createUser(s.deps, 'existing', 3);
    for (const level of viewers) {
      const cookie = level === null ? undefined : await cookieFor(s.deps, level, `viewer${level}`);
      for (const port of portsOf(row)) {
        // The usual port through inject; the port a rule names through the real second listener.
        const headers = {
          ...(cookie ? { cookie } : {}),
          ...(method === 'GET' || method === 'HEAD' ? {} : { 'content-type': 'application/json' }),
        };
        const body = method === 'GET' || method === 'HEAD' ? undefined : '{}';
        // A stream stays open: its start (the gate's answer, or the stream's first event) is what counts.
        const res = row.stream
          ? await rawStreamStart(port ? listening.extra : listening.main, url, headers)
          : port
          ? await rawRequest(listening.extra, method, url, headers, body)
          : await s.app.inject({ method: method as 'GET', url, headers, ...(body === undefined ? {} : { payload: body }) }).then(rawOf);
        const who = `${key} as ${level === null ? 'anonymous' : `level ${level}`}${port ? ` on port ${port}` : ''}`;
        const refused = isGateRefusal(res);
        const allowed = allows(row, level === null ? null : { name: 'v', level }, port);
        expect(res.status, who).toBeLessThan(500);
        if (allowed) expect(refused, who).toBe(false);
        else expect([res.status, refused], who).toEqual([level === null ? 401 : 403, true]);
      }
    }
  });
});

/**
 * Port 8443 is a fact of the connection (EXTRA_PORT's second listener), never of what the client
 * writes: every call a rule opens on 8443, over /trpc, /api and the HTTP routes, is refused to a
 * friend who only claims 8443 in Host or X-Forwarded-* on the usual port, and answered on the real one.
 */
describe.each(databases)('port 8443 comes from the socket (%s)', (kind) => {
  const s = useTestServer(kind);
  const listening = useListeningServer(s);
  const spoofs: Record<string, string>[] = [
    { host: 'localhost:8443' },
    { host: '127.0.0.1:8443' },
    { 'x-forwarded-host': 'localhost:8443' },
    { 'x-forwarded-port': '8443' },
    { host: 'localhost:8443', 'x-forwarded-host': 'localhost:8443', 'x-forwarded-port': '8443', 'x-forwarded-proto': 'https', forwarded: 'host=localhost:8443' },
  ];
  type Call = { label: string; method: string; url: string; body?: string };
  const json = { 'content-type': 'application/json' };
  const calls: Call[] = [];
  for (const path of Object.keys(procedures) as ProcedurePath[]) {
    const rule = procedures[path] as ProcedureAccess;
    if (typeof rule !== 'object' || rule.alsoOnPort === undefined) continue;
    const input = samples[path];
    if (findProcedure(path)?._def.type === 'query') {
      const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
      calls.push({ label: `/trpc/${path}`, method: 'GET', url: `/trpc/${path}${query}` });
    } else calls.push({ label: `/trpc/${path}`, method: 'POST', url: `/trpc/${path}`, body: JSON.stringify(input ?? {}) });
  }
  for (const [url, route] of Object.entries(legacyApi)) {
    const rule = procedures[route.procedure as ProcedurePath] as ProcedureAccess;
    if (typeof rule === 'object' && rule.alsoOnPort !== undefined) calls.push({ label: url, method: 'POST', url, body: '{}' });
  }
  for (const key of Object.keys(httpRoutes) as HttpRoutePath[]) {
    const row = httpRoutes[key] as HttpRow;
    if (row.alsoOnPort === undefined) continue;
    const [method, pattern] = splitKey(key);
    const url = pattern.replace(/:[A-Za-z_]+/g, 'sample').replace(/\*/g, 'sample');
    calls.push({ label: key, method, url, ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }) });
  }

  it('has rules that open on 8443 to check (recipes, the trade game)', () => {
    expect(calls.map((c) => c.label)).toEqual(expect.arrayContaining(['/trpc/recipes.list', '/api/recipes/get_list', 'GET /private/recipes/:file', '/trpc/tradeGame.trade']));
  });

  it.each(calls.map((c) => [c.label, c] as const))('%s: refused to a friend spoofing 8443, answered on the real 8443 listener', async (_label, call) => {
    await createUser(s.deps, 'existing', 3);
    const cookie = await cookieFor(s.deps, 1, 'friend');
    const headers = { cookie, ...(call.body === undefined ? {} : json) };
    for (const spoof of spoofs) {
      const res = await rawRequest(listening.main, call.method, call.url, { ...headers, ...spoof }, call.body);
      expect([JSON.stringify(spoof), res.status, isGateRefusal(res)]).toEqual([JSON.stringify(spoof), 403, true]);
    }
    const real = await rawRequest(listening.extra, call.method, call.url, headers, call.body);
    expect(real.status).toBeLessThan(500);
    expect(isGateRefusal(real)).toBe(false);
  });
});
