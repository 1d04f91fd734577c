import { expect } from 'vitest';
import type { windowsKeysRoutes } from '@site/contracts';
import { windowsKeyMessages } from '@site/contracts';
import { cookieFor, postJson } from '../helpers.ts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';

export const SAMPLE_KEY = 'ABCDE-12345-FGHIJ-67890-KLMNO';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const windowsKeysSamples = {
  'windowsKeys.list': undefined,
  'windowsKeys.add': { key: SAMPLE_KEY, status: 'Unused', location: '' },
  // No key is registered: a NOT_FOUND answer is not a refusal.
  'windowsKeys.update': { key: 'ZZZZZ-12345-FGHIJ-67890-KLMNO', status: 'Active', location: 'Desk' },
} satisfies AreaSamples<typeof windowsKeysRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const windowsKeysParity = {
  async '/api/windows_keys/get'(s) {
    const cookie = await cookieFor(s.deps, 2);
    await postJson(s.app, '/api/windows_keys/add', { key: SAMPLE_KEY, status: 'Active', location: 'Desk' }, cookie);
    const res = await postJson(s.app, '/api/windows_keys/get', undefined, cookie);
    expect(res.json()).toEqual([{ key: SAMPLE_KEY, location: 'Desk', status: 'Active' }]);
  },
  async '/api/windows_keys/update'(s) {
    const cookie = await cookieFor(s.deps, 2);
    await postJson(s.app, '/api/windows_keys/add', { key: SAMPLE_KEY, status: 'Active', location: 'Desk' }, cookie);
    const res = await postJson(s.app, '/api/windows_keys/update', { key: SAMPLE_KEY, location: 'Desk', status: 'Inactive' }, cookie);
    expect(res.json()).toEqual({ key: SAMPLE_KEY, location: 'Desk', status: 'Inactive' });
    const again = await postJson(s.app, '/api/windows_keys/update', { key: SAMPLE_KEY, location: 'Desk', status: 'Inactive' }, cookie);
    expect([again.statusCode, again.json()]).toEqual([409, { message: windowsKeyMessages.releaseNotActive }]);
  },
  async '/api/windows_keys/add'(s) {
    const cookie = await cookieFor(s.deps, 2);
    const res = await postJson(s.app, '/api/windows_keys/add', { key: SAMPLE_KEY.toLowerCase(), status: 'Inactive', location: 'Drawer' }, cookie);
    expect(res.json()).toEqual({ key: SAMPLE_KEY, location: 'Drawer', status: 'Inactive' });
    const short = await postJson(s.app, '/api/windows_keys/add', { key: 'ABCDE', status: 'Inactive', location: 'x' }, cookie);
    expect([short.statusCode, short.json()]).toEqual([400, { message: windowsKeyMessages.keyIncomplete }]);
  },
} satisfies AreaParity<typeof windowsKeysRoutes>;
