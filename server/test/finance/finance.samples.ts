import { expect } from 'vitest';
import type { financeRoutes } from '@site/contracts';
import { cookieFor, postJson } from '../helpers.ts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';
import { samplePdf } from './fixtures.ts';

export const sampleEntry = { recipient: 'Food bank', value: '12.34', item: 'Cash', date: '2024-03-01', charitable: true };

/** A valid input per procedure: the permission matrix calls each at every level. */
export const financeSamples = {
  'finance.list': { year: 2024 },
  'finance.overview': { year: 2024 },
  'finance.add': sampleEntry,
  'finance.update': { id: 1, ...sampleEntry },
  'finance.remove': { id: 1 },
  'finance.documentation': { id: 1 },
  'finance.setDocumentation': { id: 1, file: samplePdf().toString('base64'), fileType: 'application/pdf' },
  'finance.removeDocumentation': { id: 1 },
} satisfies AreaSamples<typeof financeRoutes>;

const documented = ['charity_id', 'charitable', 'recipient', 'value', 'item', 'date', 'has_documentation'].sort();

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const financeParity = {
  async '/api/finance/get_charity'(s) {
    const cookie = await cookieFor(s.deps, 3, 'boss');
    await postJson(s.app, '/api/finance/add_charity', { ...sampleEntry, date: '2023-12-31' }, cookie);
    await postJson(s.app, '/api/finance/add_charity', { ...sampleEntry, charitable: 'false', value: 0.3 }, cookie);
    const res = await postJson(s.app, '/api/finance/get_charity', { year: '2024' }, cookie);
    expect(res.statusCode).toBe(200);
    const rows = res.json() as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(documented);
    expect(rows[0]).toMatchObject({ charitable: false, recipient: 'Food bank', value: 0.3, item: 'Cash', date: '2024-03-01', has_documentation: false });
    const bad = await postJson(s.app, '/api/finance/get_charity', { year: 'last' }, cookie);
    expect([bad.statusCode, bad.json()]).toEqual([400, { message: 'Year must be a whole number from 1900 to 9999' }]);
  },
  async '/api/finance/get_charity_documentation'(s) {
    const cookie = await cookieFor(s.deps, 3, 'boss');
    const pdf = samplePdf();
    const added = await postJson(
      s.app,
      '/api/finance/add_charity',
      { ...sampleEntry, documentation: pdf.toString('base64'), documentationType: 'application/pdf' },
      cookie,
    );
    const id = (added.json() as { charity_id: number }).charity_id;
    const res = await postJson(s.app, '/api/finance/get_charity_documentation', { id: String(id) }, cookie);
    expect(res.json()).toEqual({ type: 'application/pdf', buffer: pdf.toString('base64') });
  },
  async '/api/finance/set_charity_documentation'(s) {
    const cookie = await cookieFor(s.deps, 3, 'boss');
    const added = await postJson(s.app, '/api/finance/add_charity', sampleEntry, cookie);
    const id = (added.json() as { charity_id: number }).charity_id;
    const res = await postJson(
      s.app,
      '/api/finance/set_charity_documentation',
      { id, file: samplePdf().toString('base64'), fileType: 'application/pdf' },
      cookie,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ charity_id: id, has_documentation: true });
  },
  async '/api/finance/add_charity'(s) {
    const cookie = await cookieFor(s.deps, 3, 'boss');
    const res = await postJson(s.app, '/api/finance/add_charity', { ...sampleEntry, charitable: 'true' }, cookie);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json() as object).sort()).toEqual(documented);
    expect(res.json()).toMatchObject({ charitable: true, value: 12.34 });
    const bad = await postJson(s.app, '/api/finance/add_charity', { value: 'ten', date: '2024-01-01' }, cookie);
    expect([bad.statusCode, bad.json()]).toEqual([400, { message: 'Recipient may not be null' }]);
  },
} satisfies AreaParity<typeof financeRoutes>;
