import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import {
  accessMessages,
  allows,
  ACCOUNT_LEVELS,
  httpRoutes,
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
import { invoke } from '../src/trpc/invoke.ts';
import { appRouter } from '../src/trpc/root.ts';
import { cookieFor, createUser, databases, useTestServer } from './helpers.ts';

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
});

describe.each(databases)('permission matrix (%s)', (kind) => {
  const s = useTestServer(kind);
  const paths = Object.keys(procedures) as ProcedurePath[];

  // One test per procedure, called as anonymous and at every level (one database reset, not five),
  // and again on the port a rule names (8443), as the browser's address gives it.
  it.each(paths)('%s at anonymous and levels 0-3', async (path) => {
    // Some account must exist so that sign-ups are not the first (owner) one.
    await createUser(s.deps, 'existing', 3);
    const rule = procedures[path];
    for (const level of viewers) {
      const user = level === null ? null : await createUser(s.deps, `viewer${level}`, level);
      for (const port of portsOf(rule)) {
        const ctx = createContextInner(s.deps, { user, port: () => port });
        const allowed = allows(rule, ctx.viewer, port);
        let refusal: TRPCError | undefined;
        try {
          await invoke(path, ctx, samples[path]);
        } catch (error) {
          if (!(error instanceof TRPCError)) throw error;
          if (gateMessages.includes(error.message)) refusal = error;
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
        const res = await s.app.inject({
          method: method as 'GET',
          url,
          headers: {
            ...(port ? { host: `localhost:${port}` } : {}),
            ...(cookie ? { cookie } : {}),
            ...(method === 'GET' || method === 'HEAD' ? {} : { 'content-type': 'application/json' }),
          },
          ...(method === 'GET' || method === 'HEAD' ? {} : { payload: '{}' }),
        });
        const who = `${key} as ${level === null ? 'anonymous' : `level ${level}`}${port ? ` on port ${port}` : ''}`;
        const message = String(res.headers['content-type'] ?? '').includes('json') ? (res.json() as { message?: string }).message : undefined;
        const refused = message !== undefined && gateMessages.includes(message);
        const allowed = allows(row, level === null ? null : { name: 'v', level }, port ?? 80);
        expect(res.statusCode, who).toBeLessThan(500);
        if (allowed) expect(refused, who).toBe(false);
        else expect([res.statusCode, refused], who).toEqual([level === null ? 401 : 403, true]);
      }
    }
  });
});
