import { describe, expect, it } from 'vitest';
import type { Level } from '@site/contracts';
import * as repo from '../../src/areas/pictures/pictures.repository.ts';
import type { SessionUser } from '../../src/identity/session-user.ts';
import { callerFor, createUser, databases, useTestServer, type TestServer } from '../helpers.ts';
import { pictureRow, tempMediaDir } from './pictures.fixtures.ts';

function seed(s: TestServer, by: SessionUser, caption: string, date: [number, number, number], status: 'approved' | 'pending' = 'approved') {
  return repo.insertPicture(s.db, pictureRow(by, caption, date, status));
}

describe.each(databases)('pictures service (%s)', (kind) => {
  const s = useTestServer(kind, { MEDIA_DIR: tempMediaDir() });
  const users = async () => {
    const out = {} as Record<Level, SessionUser>;
    for (const level of [0, 1, 2, 3] as const) out[level] = await createUser(s.deps, `u${level}`, level);
    return out;
  };

  it('pages by month with the unknown month after its year, by year, and by size', async () => {
    const u = await users();
    await seed(s, u[2], 'a', [2024, 7, 15]);
    await seed(s, u[2], 'b', [2024, 7, 0]);
    await seed(s, u[2], 'c', [2024, 0, 0]);
    await seed(s, u[2], 'd', [2024, 1, 3]);
    await seed(s, u[2], 'e', [2023, 12, 31]);
    await seed(s, u[2], 'f', [0, 0, 0]);
    const api = callerFor(s.deps, u[1]);
    const months = [];
    for (let i = 0; i < 5; i++) {
      const page = await api.pictures.page({ type: 'month', index: i });
      months.push([page.label, page.pictures.map((p) => p.desc).join('')]);
    }
    expect(months).toEqual([
      ['July 2024', 'ab'],
      ['January 2024', 'd'],
      ['Unknown Month 2024', 'c'],
      ['December 2023', 'e'],
      ['Unknown Date', 'f'],
    ]);
    expect((await api.pictures.page({ type: 'year', index: 0 })).pictures.map((p) => p.desc)).toEqual(['a', 'b', 'd', 'c']);
    const sized = await Promise.all([0, 1, 2].map((index) => api.pictures.page({ type: 4, index })));
    expect(sized.map((p) => [p.label, p.pageCount, p.pictures.map((x) => x.desc).join('')])).toEqual([
      ['Pictures 1 - 4', 2, 'abdc'],
      ['Pictures 5 - 6', 2, 'ef'],
      ['No Such Page', 2, ''],
    ]);
    expect((await api.pictures.page({ type: 10, index: 0 })).label).toBe('All Pictures');
    expect(await api.pictures.pageInfo({ type: 'month', index: 0 })).toMatchObject({ pageLength: 2, pageCount: 5 });
    expect(await api.pictures.get({ type: 4, index: 1, pic: 1 })).toMatchObject({ desc: 'f', uploaded: '' });
    expect(await api.pictures.get({ type: 'month', index: 2, pic: 0 })).toMatchObject({ desc: 'c', uploaded: '2024-xx-xx' });
  });

  it('shows a pending picture to its uploader and admins only, until approved', async () => {
    const u = await users();
    const other = await createUser(s.deps, 'other1', 1);
    await seed(s, u[2], 'seen', [2024, 5, 1]);
    const pending = await seed(s, u[1], 'mine', [2024, 5, 2], 'pending');
    const view = async (user: SessionUser) =>
      (await callerFor(s.deps, user).pictures.page({ type: 'month', index: 0 })).pictures.map((p) => `${p.desc}${p.pending ? '*' : ''}`);
    expect(await view(u[1])).toEqual(['mine*', 'seen']);
    expect(await view(other)).toEqual(['seen']);
    expect(await view(u[2])).toEqual(['seen']);
    expect(await view(u[3])).toEqual(['mine*', 'seen']);
    const admin = callerFor(s.deps, u[3]);
    expect(await admin.pictures.pendingCount()).toEqual({ count: 1 });
    expect((await admin.pictures.pending()).map((p) => p.desc)).toEqual(['mine']);
    await expect(callerFor(s.deps, u[2]).pictures.approve({ id: pending.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await admin.pictures.approve({ id: pending.id });
    expect(await view(other)).toEqual(['mine', 'seen']);
    expect(await admin.pictures.pendingCount()).toEqual({ count: 0 });
    expect(await callerFor(s.deps, other).pictures.pageInfo({ type: 'month', index: 0 })).toMatchObject({ pageLength: 2 });
  });

  it('rejecting deletes; admins edit captions and dates, and the month counts follow', async () => {
    const u = await users();
    const p = await seed(s, u[1], 'nope', [2024, 5, 2], 'pending');
    const keep = await seed(s, u[2], 'beach', [2024, 5, 3]);
    const admin = callerFor(s.deps, u[3]);
    await expect(admin.pictures.reject({ id: keep.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await admin.pictures.reject({ id: p.id });
    expect(await admin.pictures.pendingCount()).toEqual({ count: 0 });
    const moved = await admin.pictures.update({ id: keep.id, caption: '  Beach day ', date: '2019-xx-xx' });
    expect(moved).toMatchObject({ desc: 'Beach day', uploaded: '2019-xx-xx' });
    expect((await admin.pictures.page({ type: 'month', index: 0 })).label).toBe('Unknown Month 2019');
    expect(await admin.pictures.pageInfo({ type: 'month', index: 0 })).toMatchObject({ pageCount: 1, pageLength: 1 });
    await expect(admin.pictures.update({ id: keep.id, caption: 'x', date: '2019-02-30' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await admin.pictures.delete({ id: keep.id });
    expect(await admin.pictures.pageInfo({ type: 'month', index: 0 })).toMatchObject({ pageCount: 0, pageLength: 0 });
    await expect(admin.pictures.delete({ id: keep.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses anonymous callers and level 0', async () => {
    const u = await users();
    await expect(callerFor(s.deps, null).pictures.page({ type: 'month', index: 0 })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(callerFor(s.deps, u[0]).pictures.page({ type: 'month', index: 0 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
