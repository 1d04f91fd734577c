import { describe, expect, it } from 'vitest';
import { legacyApi, type LegacyPath } from '@site/contracts';
import { parity } from './area-tables.ts';
import { colorsPayload } from './settings/settings.samples.ts';
import { cookieFor, databases, postJson, useTestServer } from './helpers.ts';

describe.each(databases)('/api parity (%s)', (kind) => {
  const s = useTestServer(kind);

  it.each(Object.keys(legacyApi) as LegacyPath[])('%s', async (path) => {
    await parity[path](s);
  });

  it('answers refusals with { message } and the right status', async () => {
    const anon = await postJson(s.app, '/api/admin/users');
    expect(anon.statusCode).toBe(401);
    expect(Object.keys(anon.json())).toEqual(['message']);
    const friend = await cookieFor(s.deps, 1);
    expect((await postJson(s.app, '/api/admin/users', undefined, friend)).statusCode).toBe(403);
    const pending = await cookieFor(s.deps, 0, 'pending');
    const res = await postJson(s.app, '/api/user_settings/set_colors', colorsPayload, pending);
    expect(res.statusCode).toBe(403);
    expect(res.json().preauth).toBe(true);
  });

  it('refuses a body that is not a JSON object, and unknown /api paths', async () => {
    expect((await postJson(s.app, '/api/login_attempt', [1, 2])).statusCode).toBe(400);
    const broken = await s.app.inject({
      method: 'POST',
      url: '/api/login_attempt',
      headers: { 'content-type': 'application/json' },
      payload: '{"loginName":',
    });
    expect(broken.statusCode).toBe(400);
    expect(typeof broken.json().message).toBe('string');
    const missing = await postJson(s.app, '/api/nothing_here');
    expect(missing.statusCode).toBe(404);
    expect(typeof missing.json().message).toBe('string');
  });
});
