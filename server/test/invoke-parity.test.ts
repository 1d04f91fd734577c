import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { procedures, type Level, type ProcedurePath } from '@site/contracts';
import { createContextInner, type Context } from '../src/trpc/context.ts';
import { errorShapeOf, invoke, invokeThroughTrpc } from '../src/trpc/invoke.ts';
import { samples } from './area-tables.ts';
import { createUser, useTestServer, type TestServer } from './helpers.ts';

/**
 * invoke() runs a procedure's middlewares with its own copy of tRPC's procedure caller (for speed,
 * see invoke.ts). Here every procedure runs through it and through tRPC's public callTRPCProcedure,
 * each on its own database prepared the same way, and what comes back must be the same: the result,
 * or the error's code, message and shape (as the /trpc mount sends it), and the cookies it set.
 */
type Runner = typeof invoke;
type Call = { level: Level | null; input: unknown; what: string };

const calls = (path: ProcedurePath): Call[] => [
  { level: null, input: samples[path], what: 'anonymous, valid input' },
  { level: 0, input: samples[path], what: 'level 0, valid input' },
  { level: 3, input: samples[path], what: 'level 3, valid input' },
  { level: 3, input: { unexpected: ['input'] }, what: 'level 3, input of the wrong shape' },
  { level: 3, input: 'not an object', what: 'level 3, a string for input' },
];

/** Values that differ between two equal runs: times and random tokens. */
function normalise(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null), (_key, v: unknown) => {
    if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(v)) return '<time>';
    // A one-time link's token: 32 random bytes in base64url.
    if (typeof v === 'string' && /[#/][A-Za-z0-9_-]{43}$/.test(v)) return v.replace(/[A-Za-z0-9_-]{43}$/, '<token>');
    // A guest link's token (areas/albums): 16 random bytes in base64url, at the end of its URL.
    if (typeof v === 'string' && /\/(shared|upload)\/[A-Za-z0-9_-]{22}$/.test(v)) return v.replace(/[A-Za-z0-9_-]{22}$/, '<token>');
    // The site's VAPID public key (an uncompressed P-256 point in base64url), made once per database.
    if (typeof v === 'string' && /^B[A-Za-z0-9_-]{86}$/.test(v)) return '<vapid key>';
    // A calendar feed's address (areas/plan): its token is 32 random bytes in base64url.
    if (typeof v === 'string' && /\/calendar\/cal_[A-Za-z0-9_-]{43}\.ics$/.test(v)) return v.replace(/cal_[A-Za-z0-9_-]{43}\.ics$/, 'cal_<token>.ics');
    if (typeof v === 'number' && Math.abs(v - Date.now()) < 86_400_000) return '<time>';
    return v;
  }) as unknown;
}

async function outcome(s: TestServer, run: Runner, path: ProcedurePath, call: Call, user: Context['user']) {
  const cookies: string[] = [];
  const ctx = createContextInner(s.deps, {
    user,
    cookie: { set: () => cookies.push('set'), clear: () => cookies.push('clear') },
    device: { token: null, set: () => cookies.push('device') },
  });
  try {
    const data = await run(path, ctx, call.input);
    return { ok: true, data: normalise(data), cookies };
  } catch (cause) {
    expect(cause, `${path}, ${call.what}: throws a TRPCError`).toBeInstanceOf(TRPCError);
    const { error, shape } = errorShapeOf(cause, { path, input: call.input, ctx, type: 'unknown' });
    return {
      ok: false,
      code: error.code,
      message: error.message,
      cause: error.cause?.constructor.name,
      shape: normalise(shape),
      cookies,
    };
  }
}

describe('invoke() and tRPC callTRPCProcedure', () => {
  const ours = useTestServer('pglite');
  const trpcs = useTestServer('pglite');
  const paths = Object.keys(procedures) as ProcedurePath[];

  it.each(paths)('%s: the same results and errors', async (path) => {
    for (const s of [ours, trpcs]) await createUser(s.deps, 'existing', 3);
    for (const [i, call] of calls(path).entries()) {
      const name = `viewer${i}`;
      const [a, b] = await Promise.all([
        call.level === null ? null : createUser(ours.deps, name, call.level),
        call.level === null ? null : createUser(trpcs.deps, name, call.level),
      ]);
      expect(a?.id, 'both databases give the account the same id').toBe(b?.id);
      const mine = await outcome(ours, invoke, path, call, a);
      const theirs = await outcome(trpcs, invokeThroughTrpc, path, call, b);
      expect(mine, `${path}, ${call.what}`).toEqual(theirs);
    }
  });

  it('refuses a query called as a mutation, and an unknown path, the same way', async () => {
    const user = await createUser(ours.deps, 'someone', 3);
    const ctx = createContextInner(ours.deps, { user });
    for (const run of [invoke, invokeThroughTrpc]) {
      await expect(run('auth.status', ctx, undefined, { type: 'mutation' })).rejects.toMatchObject({ code: 'METHOD_NOT_SUPPORTED' });
      await expect(run('no.such', ctx, undefined)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
  });
});
