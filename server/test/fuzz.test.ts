import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_LEVELS, httpRoutes, legacyApi, procedures, type Level } from '@site/contracts';
import { findProcedure } from '../src/trpc/invoke.ts';
import { samples } from './area-tables.ts';
import { cookieFor, createUser, databases, useTestServer } from './helpers.ts';

/**
 * Hostile requests to every /api path, every procedure and every HTTP route of the tables (so an area
 * is fuzzed the day its rows are added), as anonymous and at every level: wrong types, huge and
 * control-character strings, odd numbers, prototype keys, missing and extra fields, bad JSON and wrong
 * content types. Any 5xx fails, and so does a request that gets no answer in time.
 * Bounded by count, never by the clock: every target is sent ROUNDS hostile requests per database
 * (each with a level, content type, path segments and body of its own); FUZZ_RUNS=N sends N instead.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 0);
const ROUNDS = 2;
const ANSWER_WITHIN_MS = 15_000;

type Target = { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD'; url: string; kind: 'api' | 'trpc' | 'http'; sample?: unknown };

function targets(): Target[] {
  const list: Target[] = [];
  for (const url of Object.keys(legacyApi)) list.push({ method: 'POST', url, kind: 'api' });
  for (const path of Object.keys(procedures)) {
    const type = findProcedure(path)?._def.type;
    list.push({ method: type === 'query' ? 'GET' : 'POST', url: `/trpc/${path}`, kind: 'trpc', sample: (samples as Record<string, unknown>)[path] });
  }
  for (const [key, row] of Object.entries(httpRoutes)) {
    // A stream (GET /events) never ends, so it cannot be awaited here; test/live covers its hostile requests.
    if ((row as { stream?: boolean }).stream) continue;
    const [method, url] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)];
    list.push({ method: method as Target['method'], url, kind: 'http' });
  }
  return list;
}

const fieldNames = (() => {
  const names = new Set(['name', 'password', 'id', 'level', 'text', 'title', 'amount', 'date', 'file', 'input', '0']);
  for (const route of Object.values(legacyApi) as { input?: Record<string, string | { field: string }> }[]) {
    for (const [to, from] of Object.entries(route.input ?? {})) {
      names.add(to);
      names.add(typeof from === 'string' ? from : from.field);
    }
  }
  for (const sample of Object.values(samples as Record<string, unknown>)) {
    if (sample && typeof sample === 'object') for (const key of Object.keys(sample)) names.add(key);
  }
  return [...names];
})();

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\u202eevil', '\u200badmin', '\ud800', '%00', '../../etc/passwd', '<script>', "' or 1=1 --", ''),
  fc.nat({ max: 300_000 }).map((n) => 'x'.repeat(n)),
);
const oddNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 4, 3, 255),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const leaf = fc.oneof(hostileString, oddNumber, fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));
const value = fc.oneof({ maxDepth: 2 }, leaf, fc.array(leaf, { maxLength: 4 }), fc.dictionary(fc.constantFrom(...fieldNames), leaf, { maxKeys: 4 }));
const key = fc.oneof(fc.constantFrom(...fieldNames, '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'), fc.string({ maxLength: 12 }));

/** A body built from the target's valid sample with fields changed, removed or added, or from scratch. */
function body(sample: unknown) {
  const base = sample && typeof sample === 'object' && !Array.isArray(sample) ? (sample as Record<string, unknown>) : {};
  const keys = Object.keys(base);
  const mutated = fc
    .record({
      change: keys.length > 0 ? fc.subarray(keys) : fc.constant([] as string[]),
      drop: keys.length > 0 ? fc.subarray(keys) : fc.constant([] as string[]),
      extra: fc.dictionary(key, value, { maxKeys: 3 }),
      values: fc.array(value, { minLength: keys.length, maxLength: keys.length }),
    })
    .map(({ change, drop, extra, values }) => {
      const out: Record<string, unknown> = { ...base };
      change.forEach((k, i) => (out[k] = values[i]));
      for (const k of drop) delete out[k];
      return JSON.stringify(out).slice(0, -1) + (Object.keys(extra).length ? (Object.keys(out).length ? ',' : '') + JSON.stringify(extra).slice(1) : '}');
    });
  return fc.oneof(
    mutated,
    value.map((v) => JSON.stringify(v) ?? 'null'),
    fc.constantFrom('{', '{"a":', '[1,2', 'null', '"str"', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"x":1}}}', '\u0000', ''),
    fc.string({ maxLength: 200 }),
  );
}

const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/json; charset=utf-16',
  undefined,
);

/** Fills `:param` and `*` of an HTTP route with hostile path segments. */
const pathParam = fc.oneof(fc.constantFrom('1', '0', '-1', '..', '%2e%2e', '%00', 'a'.repeat(3000), '%E0%A4%A', 'x.jpg', ''), fc.webSegment());

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_WITHIN_MS} ms: ${what}`)), ANSWER_WITHIN_MS);
    }),
  ]);
}

describe.each(databases)('fuzzing every path of the tables (%s)', (kind) => {
  const s = useTestServer(kind, { LOGIN_MAX_FAILURES: '10000', SIGNUP_MAX_PER_ADDRESS: '100000' });

  it('answers every hostile request without a 5xx, and keeps answering', async () => {
    await createUser(s.deps, 'existing', 3);
    const users = new Map<Level, number>();
    for (const level of ACCOUNT_LEVELS) users.set(level, (await createUser(s.deps, `fuzz${level}`, level)).id);
    const all = targets();
    const viewer = fc.constantFrom<Level | null>(null, ...ACCOUNT_LEVELS);
    let sent = 0;

    const runs = RUNS > 0 ? RUNS : all.length * ROUNDS;
    await fc.assert(
      fc.asyncProperty(
        // Each target in turn (run i sends to target i mod N), so every one is reached ROUNDS times.
        fc.constant(null).map(() => all[sent % all.length] as Target),
        viewer,
        contentType,
        fc.array(pathParam, { minLength: 3, maxLength: 3 }),
        fc.nat(),
        async (target, level, type, params, seed) => {
          const userId = level === null ? undefined : users.get(level);
          const cookie = userId === undefined ? undefined : `sid=${(await s.deps.sessions.create(userId)).token}`;
          let p = 0;
          let url = target.url.replace(/:[A-Za-z]+|\*/g, () => encodeURIComponent(params[p++ % params.length] ?? ''));
          const payload = fc.sample(body(target.sample), { numRuns: 1, seed })[0] ?? '';
          const headers: Record<string, string> = {};
          if (cookie) headers.cookie = cookie;
          if (target.kind === 'trpc' && target.method === 'GET') {
            url += `?input=${encodeURIComponent(payload)}`;
          } else if (type) {
            headers['content-type'] = type;
          }
          const send = target.method !== 'GET' && target.method !== 'HEAD';
          sent++;
          const res = await withTimeout(
            s.app.inject({ method: target.method, url, headers, ...(send ? { payload } : {}) }),
            `${target.method} ${url.slice(0, 200)}`,
          );
          if (res.statusCode >= 500) {
            throw new Error(`${res.statusCode} for ${target.method} ${url.slice(0, 200)} as ${level ?? 'anonymous'} (${type ?? 'no type'}): ${payload.slice(0, 300)} -> ${res.body.slice(0, 300)}`);
          }
        },
      ),
      { numRuns: runs, endOnFailure: true },
    );
    expect(sent).toBe(runs);
    // Still answering after all of that.
    const health = await withTimeout(s.app.inject({ method: 'GET', url: '/healthz' }), 'GET /healthz');
    expect(health.statusCode).toBe(200);
    console.log(`fuzz (${kind}): ${sent} requests over ${all.length} paths`);
  }, 3_600_000);
});

/** Every numeric field of a sample, by its path of keys, including those inside arrays and nested objects. */
function numberPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'number') return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => numberPaths(v, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => numberPaths(v, [...path, k]));
  return [];
}

function withNumber(sample: unknown, path: (string | number)[], n: number): unknown {
  if (path.length === 0) return n;
  const copy = (Array.isArray(sample) ? [...sample] : { ...(sample as object) }) as Record<string | number, unknown>;
  copy[path[0]!] = withNumber(copy[path[0]!], path.slice(1), n);
  return copy;
}

/** Whole numbers past what a database integer column holds: the random fuzz reaches them only by chance. */
const PAST_INTEGER_COLUMNS = [2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER, 2 ** 63, 1e308];

describe.each(databases)('numbers past an integer column in every numeric field (%s)', (kind) => {
  const s = useTestServer(kind);

  it('answers each with a 4xx or a 2xx, never a 5xx', async () => {
    const cookie = await cookieFor(s.deps, 3, 'bigadmin');
    const failures: string[] = [];
    let sent = 0;
    for (const { method, url, sample } of targets().filter((t) => t.kind === 'trpc')) {
      for (const at of numberPaths(sample)) {
        for (const n of PAST_INTEGER_COLUMNS) {
          const payload = JSON.stringify(withNumber(sample, at, n));
          const res =
            method === 'GET'
              ? await s.app.inject({ method, url: `${url}?input=${encodeURIComponent(payload)}`, headers: { cookie } })
              : await s.app.inject({ method: 'POST', url, headers: { cookie, 'content-type': 'application/json' }, payload });
          sent++;
          if (res.statusCode >= 500) failures.push(`${url.slice('/trpc/'.length)} ${at.join('.')}=${n}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  }, 120_000);
});
