import { describe, expect, it } from 'vitest';
import { legacyApi, type LegacyPath } from '@site/contracts';
import { parity } from './area-tables.ts';
import { colorsPayload } from './settings/settings.samples.ts';
import { sampleEntry } from './finance/finance.samples.ts';
import { SAMPLE_KEY } from './windows-keys/windows-keys.samples.ts';
import { nullMeansAbsentFields } from '../src/legacy/legacy.plugin.ts';
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

  it('takes null for an optional field as absent (old clients send it), and still refuses a required one naming it', async () => {
    const boss = await cookieFor(s.deps, 3, 'boss');
    const charity = await postJson(s.app, '/api/finance/add_charity', { ...sampleEntry, documentation: null, documentationType: null }, boss);
    expect([charity.statusCode, charity.json().has_documentation]).toEqual([200, false]);
    const family = await cookieFor(s.deps, 2, 'family');
    const key = await postJson(s.app, '/api/windows_keys/add', { key: SAMPLE_KEY, status: 'Unused', location: null }, family);
    expect([key.statusCode, key.json()]).toEqual([200, { key: SAMPLE_KEY, location: '', status: 'Unused' }]);
    const noRecipient = await postJson(s.app, '/api/finance/add_charity', { ...sampleEntry, recipient: null }, boss);
    expect([noRecipient.statusCode, noRecipient.json().message]).toEqual([400, 'Recipient may not be null']);
    const noYear = await postJson(s.app, '/api/finance/get_charity', { year: null }, boss);
    expect(noYear.statusCode).toBe(400);
    expect(noYear.json().message).toMatch(/year/i);
    // One rule, read from each procedure's input: optional fields that refuse null, nothing else.
    expect([...nullMeansAbsentFields('finance.add')].sort()).toEqual(['documentation', 'documentationType']);
    expect(nullMeansAbsentFields('finance.list').size).toBe(0);
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
