import { describe, expect, it } from 'vitest';
import { windowsKeyMessages as m } from '@site/contracts';
import { callerFor, cookieFor, createUser, databases, postJson, useTestServer } from '../helpers.ts';
import { listEvents } from '../../src/areas/windows-keys/windows-keys.repository.ts';
import { SAMPLE_KEY as KEY } from './windows-keys.samples.ts';

describe.each(databases)('windows key registry (%s)', (kind) => {
  const s = useTestServer(kind);

  it('registers, releases and claims, recording who did each and when', async () => {
    const amy = callerFor(s.deps, await createUser(s.deps, 'amy', 2));
    const bob = callerFor(s.deps, await createUser(s.deps, 'bob', 3));
    expect(await amy.windowsKeys.add({ key: 'abcde12345fghij67890klmno', status: 'Active', location: 'Desk' })).toMatchObject({
      key: KEY,
      status: 'Active',
      location: 'Desk',
      changedBy: 'amy',
    });
    expect(await bob.windowsKeys.update({ key: KEY, status: 'Inactive', location: 'ignored' })).toMatchObject({ status: 'Inactive', location: 'Desk', changedBy: 'bob' });
    expect(await amy.windowsKeys.update({ key: KEY, status: 'Active', location: 'UNUSED' })).toMatchObject({ status: 'Unused', location: '' });
    expect(await amy.windowsKeys.update({ key: KEY, status: 'Active', location: 'Laptop' })).toMatchObject({ status: 'Active', location: 'Laptop' });
    const history = await listEvents(s.db, KEY);
    expect(history.map((e) => [e.action, e.status, e.location, e.name])).toEqual([
      ['register', 'Active', 'Desk', 'amy'],
      ['release', 'Inactive', 'Desk', 'bob'],
      ['unused', 'Unused', '', 'amy'],
      ['claim', 'Active', 'Laptop', 'amy'],
    ]);
    expect(history.every((e) => e.at instanceof Date || typeof e.at === 'string')).toBe(true);
    expect(await amy.windowsKeys.list()).toEqual([{ key: KEY, status: 'Active', location: 'Laptop', changedBy: 'amy', changedAt: expect.any(String) }]);
  });

  it('refuses a duplicate key, and transitions the spec does not have, changing nothing', async () => {
    const amy = callerFor(s.deps, await createUser(s.deps, 'amy', 2));
    await amy.windowsKeys.add({ key: KEY, status: 'Active', location: 'Desk' });
    await expect(amy.windowsKeys.add({ key: KEY, status: 'Unused', location: '' })).rejects.toMatchObject({ code: 'CONFLICT', message: m.duplicate });
    await expect(amy.windowsKeys.update({ key: KEY, status: 'Active', location: 'Laptop' })).rejects.toMatchObject({ code: 'CONFLICT', message: m.claimNotFree });
    await expect(amy.windowsKeys.update({ key: KEY.replace('A', 'Z'), status: 'Inactive', location: '' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: m.notFound });
    expect(await amy.windowsKeys.list()).toMatchObject([{ key: KEY, status: 'Active', location: 'Desk' }]);
  });

  it('applies the form rules with the form messages over /api', async () => {
    const cookie = await cookieFor(s.deps, 2);
    const cases: [string, unknown, string][] = [
      ['/api/windows_keys/add', { key: 'ABCDE-12345', status: 'Active', location: 'x' }, m.keyIncomplete],
      ['/api/windows_keys/add', { status: 'Active', location: 'x' }, m.keyIncomplete],
      ['/api/windows_keys/add', { key: KEY, status: '', location: 'x' }, m.statusMissing],
      ['/api/windows_keys/add', { key: KEY, status: 'Broken', location: 'x' }, m.statusMissing],
      ['/api/windows_keys/add', { key: KEY, status: 'Active', location: '  ' }, m.locationMissing],
      ['/api/windows_keys/add', { key: KEY, status: 'Inactive' }, m.locationMissing],
      ['/api/windows_keys/update', { key: KEY, status: 'Active', location: '' }, m.locationMissing],
      ['/api/windows_keys/update', { key: KEY, status: 'Gone', location: 'x' }, m.statusMissing],
      ['/api/windows_keys/add', { key: KEY, status: 'Active', location: 'x'.repeat(101) }, 'Location may be at most 100 characters'],
    ];
    for (const [url, body, message] of cases) {
      const res = await postJson(s.app, url, body, cookie);
      expect([url, res.statusCode, res.json()]).toEqual([url, 400, { message }]);
    }
    expect((await postJson(s.app, '/api/windows_keys/get', undefined, cookie)).json()).toEqual([]);
    expect((await postJson(s.app, '/api/windows_keys/get', undefined, await cookieFor(s.deps, 1))).statusCode).toBe(403);
  });
});
