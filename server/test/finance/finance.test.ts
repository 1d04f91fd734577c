import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { charityMessages, parseCents, validateCharity } from '@site/contracts';
import { callerFor, cookieFor, createUser, databases, postJson, useTestServer, type TestServer } from '../helpers.ts';
import { sampleEntry } from './finance.samples.ts';
import { sampleImage, samplePdf, scriptAsPdf } from './fixtures.ts';

const LIMIT = 64 * 1024;

async function owner(s: TestServer) {
  const user = await createUser(s.deps, 'owner', 3);
  return callerFor(s.deps, user);
}

function firstIssue(error: TRPCError): string | undefined {
  const issues = (error.cause as { issues?: { message: string }[] } | undefined)?.issues;
  return issues?.[0]?.message;
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    // Over HTTP the error formatter sends the first validation issue; a direct caller sees them all.
    if (error instanceof TRPCError) return { code: error.code, message: firstIssue(error) ?? error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the shared charity validation', () => {
  it('reports the spec messages in the spec order, and only those that apply', () => {
    expect(validateCharity({ recipient: '', value: 'ten', item: ' ', date: '2024-01-01', charitable: true })).toEqual({
      ok: false,
      errors: [charityMessages.recipient, charityMessages.value, charityMessages.item],
    });
    expect(validateCharity({ recipient: 'A', value: '', item: '', date: '2024-01-01' })).toEqual({ ok: false, errors: [charityMessages.item] });
    expect(validateCharity({ recipient: 'A', value: '1e', item: 'x', date: '2024-01-01' })).toEqual({ ok: false, errors: [charityMessages.value] });
    // No value at all is allowed (a gift of goods); a value given must parse.
    expect(validateCharity({ recipient: 'A', value: '', item: 'Coat', date: '2024-02-29' })).toMatchObject({ ok: true, values: { value: null } });
    expect(validateCharity({ recipient: 'A', item: 'Coat', date: '2023-02-29' })).toEqual({ ok: false, errors: [charityMessages.date] });
  });

  it('parses money exactly into cents', () => {
    const cents = (v: string | number) => {
      const r = parseCents(v);
      return r.ok ? r.cents : r.reason;
    };
    expect(cents('0.1')).toBe(10);
    expect(cents(0.1)).toBe(10);
    expect(cents(0.2)).toBe(20);
    expect(cents('$1,234.5')).toBe(123450);
    expect(cents('.07')).toBe(7);
    expect(cents('12.')).toBe(1200);
    expect(cents('1.50000')).toBe(150);
    expect(cents('999999999999.99')).toBe(99_999_999_999_999);
    expect(cents('1000000000000')).toBe('too-large');
    expect(cents(1e21)).toBe('too-large');
    expect(cents('1.005')).toBe('too-precise');
    expect(cents('-5')).toBe('negative');
    // A decimal comma (one or two digits after it) is a decimal, as typed on most of Europe's keyboards;
    // three digits after a comma stay a thousands separator.
    expect(cents('25,50')).toBe(2550);
    expect(cents('25,5')).toBe(2550);
    expect(cents('1,23')).toBe(123);
    expect(cents('1.234,56')).toBe(123456);
    expect(cents('1,234')).toBe(123400);
    expect(cents('1,2,3')).toBe('not-a-number');
    expect(cents('1,234,5')).toBe('not-a-number');
    expect(cents('25,505')).toBe(2550500);
    expect(cents('abc')).toBe('not-a-number');
    expect(cents('.')).toBe('not-a-number');
    expect(cents(Number.NaN)).toBe('not-a-number');
  });
});

describe.each(databases)('finance (%s)', (kind) => {
  const s = useTestServer(kind, { FINANCE_DOCUMENT_MAX_BYTES: String(LIMIT) });

  it('refuses an entry with the first problem in the spec order, and writes nothing', async () => {
    const api = await owner(s);
    const cases: [Record<string, unknown>, string][] = [
      [{ value: 'ten', date: '2024-01-01' }, charityMessages.recipient],
      [{ recipient: null, item: 'x', date: '2024-01-01' }, charityMessages.recipient],
      [{ recipient: 'Shelter', value: 'ten', date: '2024-01-01' }, charityMessages.value],
      [{ recipient: 'Shelter', value: '10', item: '   ', date: '2024-01-01' }, charityMessages.item],
      [{ recipient: 'Shelter', value: '10.001', item: 'x', date: '2024-01-01' }, charityMessages.valueTooPrecise],
      [{ recipient: 'Shelter', value: '-1', item: 'x', date: '2024-01-01' }, charityMessages.valueNegative],
      [{ recipient: 'Shelter', value: '1', item: 'x', date: '01/02/2024' }, charityMessages.date],
      [{ recipient: 'Shel\u0000ter', value: '1', item: 'x', date: '2024-01-01' }, 'Recipient may not contain control characters'],
    ];
    for (const [input, message] of cases) {
      expect(await refusal(api.finance.add(input as never))).toEqual({ code: 'BAD_REQUEST', message });
    }
    expect(await api.finance.list({ year: 2024 })).toEqual([]);
  });

  it('keeps money to the cent: 0.1 + 0.2 is 0.30, and large values stay exact', async () => {
    const api = await owner(s);
    await api.finance.add({ ...sampleEntry, value: '0.1' });
    await api.finance.add({ ...sampleEntry, value: 0.2 });
    const big = await api.finance.add({ ...sampleEntry, value: '999,999,999,999.99', charitable: false });
    expect(big).toMatchObject({ valueCents: 99_999_999_999_999, value: 999999999999.99 });
    const list = await api.finance.list({ year: 2024 });
    expect(list.map((e) => e.valueCents)).toEqual([10, 20, 99_999_999_999_999]);
    const { totals } = await api.finance.overview({ year: 2024 });
    expect(totals).toEqual({ allCents: 100_000_000_000_029, charitableCents: 30, count: 3 });
    // Through the documented /api the value is a JSON number written from the exact decimal text.
    const cookie = await cookieFor(s.deps, 3, 'boss');
    const res = await postJson(s.app, '/api/finance/get_charity', { year: 2024 }, cookie);
    expect(res.body).toContain('"value":0.1,');
    expect(res.body).toContain('"value":999999999999.99,');
  });

  it('takes a value written with a decimal comma (25,50) through the documented /api, and still refuses words', async () => {
    const cookie = await cookieFor(s.deps, 3, 'boss');
    const added = await postJson(s.app, '/api/finance/add_charity', { recipient: 'Shelter', value: '25,50', item: 'Coats', date: '2024-03-01', charitable: true }, cookie);
    expect(added.statusCode).toBe(200);
    const refused = await postJson(s.app, '/api/finance/add_charity', { recipient: 'Shelter', value: '25 dollars', item: 'Coats', date: '2024-03-01', charitable: true }, cookie);
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ message: charityMessages.value });
    const listed = await postJson(s.app, '/api/finance/get_charity', { year: 2024 }, cookie);
    expect(listed.body).toContain('"value":25.5,');
  });

  it('filters by year, totals the year (all, charitable, count) and offers the years that have entries', async () => {
    const api = await owner(s);
    await api.finance.add({ ...sampleEntry, date: '2022-06-01', value: '5' });
    await api.finance.add({ ...sampleEntry, date: '2024-12-31', value: '100.10' });
    await api.finance.add({ ...sampleEntry, date: '2024-01-01', value: '0.90', charitable: false });
    await api.finance.add({ ...sampleEntry, date: '2024-05-05', value: '', item: 'Old coats' });
    const list = await api.finance.list({ year: 2024 });
    expect(list.map((e) => e.date)).toEqual(['2024-01-01', '2024-05-05', '2024-12-31']);
    const overview = await api.finance.overview({ year: 2024 });
    expect(overview.totals).toEqual({ allCents: 10100, charitableCents: 10010, count: 3 });
    const thisYear = new Date().getFullYear();
    expect(overview.years).toEqual([...new Set([thisYear, 2024, 2022])].sort((a, b) => b - a));
    expect((await api.finance.overview({ year: 2023 })).totals).toEqual({ allCents: 0, charitableCents: 0, count: 0 });
  });

  it('edits an entry (even into another year) and deletes it with its documentation', async () => {
    const api = await owner(s);
    const entry = await api.finance.add({ ...sampleEntry, documentation: samplePdf().toString('base64') });
    const edited = await api.finance.update({ id: entry.id, recipient: 'Library', value: '7', item: 'Books', date: '2025-02-03', charitable: false });
    expect(edited).toMatchObject({ recipient: 'Library', valueCents: 700, date: '2025-02-03', charitable: false, hasDocumentation: true });
    expect(await api.finance.list({ year: 2024 })).toEqual([]);
    expect(await api.finance.remove({ id: entry.id })).toEqual({ id: entry.id });
    expect(await api.finance.list({ year: 2025 })).toEqual([]);
    expect(await refusal(api.finance.documentation({ id: entry.id }))).toEqual({ code: 'NOT_FOUND', message: charityMessages.unknownEntry });
    expect(await refusal(api.finance.remove({ id: entry.id }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal(api.finance.update({ id: 999, ...sampleEntry }))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('stores each allowed documentation type, told from its bytes, and serves it back', async () => {
    const api = await owner(s);
    const cookie = await cookieFor(s.deps, 3, 'boss');
    const files = [
      ['application/pdf', samplePdf()],
      ['image/jpeg', await sampleImage('jpeg')],
      ['image/png', await sampleImage('png')],
      ['image/webp', await sampleImage('webp')],
    ] as const;
    for (const [type, bytes] of files) {
      // The claimed type is ignored: the bytes decide.
      const entry = await api.finance.add({ ...sampleEntry, documentation: bytes.toString('base64'), documentationType: 'text/html' });
      expect(entry).toMatchObject({ hasDocumentation: true, documentationType: type });
      expect(await api.finance.documentation({ id: entry.id })).toEqual({ type, buffer: bytes.toString('base64') });
      const res = await s.app.inject({ method: 'GET', url: `/private/finance/${entry.id}/documentation`, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toMatch(/script-src/);
      if (type !== 'application/pdf') expect(csp).toContain('sandbox');
      expect(Buffer.compare(res.rawPayload, bytes)).toBe(0);
    }
  });

  it('refuses a script named .pdf, base64 that does not decode, empty and oversized files', async () => {
    const api = await owner(s);
    const add = (documentation: string) => refusal(api.finance.add({ ...sampleEntry, documentation, documentationType: 'application/pdf' }));
    expect(await add(scriptAsPdf.toString('base64'))).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE', message: charityMessages.documentationType });
    expect(await add('not base64!!')).toEqual({ code: 'BAD_REQUEST', message: charityMessages.documentationBase64 });
    expect(await add('QUJD=A==')).toEqual({ code: 'BAD_REQUEST', message: charityMessages.documentationBase64 });
    expect(await add('QUJDR')).toEqual({ code: 'BAD_REQUEST', message: charityMessages.documentationBase64 });
    const big = Buffer.concat([samplePdf(), Buffer.alloc(LIMIT)]);
    expect(await add(big.toString('base64'))).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'Documentation may be at most 64 KiB' });
    expect(await api.finance.list({ year: 2024 })).toEqual([]);
    // A data: URL is accepted as well as bare base64.
    const ok = await api.finance.add({ ...sampleEntry, documentation: `data:application/pdf;base64,${samplePdf().toString('base64')}` });
    expect(ok.documentationType).toBe('application/pdf');
  });

  it('attaches, replaces and removes documentation later, through tRPC and the page upload route', async () => {
    const api = await owner(s);
    const cookie = await cookieFor(s.deps, 3, 'boss');
    const entry = await api.finance.add(sampleEntry);
    expect(entry.hasDocumentation).toBe(false);
    expect(await refusal(api.finance.documentation({ id: entry.id }))).toEqual({ code: 'NOT_FOUND', message: charityMessages.noDocumentation });

    const png = await sampleImage('png');
    const upload = (file: string) =>
      postJson(s.app, `/private/finance/${entry.id}/documentation`, { file, fileType: 'image/png' }, cookie);
    const res = await upload(png.toString('base64'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: entry.id, hasDocumentation: true, documentationType: 'image/png' });
    expect((await upload(scriptAsPdf.toString('base64'))).json()).toEqual({ message: charityMessages.documentationType });
    expect((await upload('%%%')).statusCode).toBe(400);

    const replaced = await api.finance.setDocumentation({ id: entry.id, file: samplePdf().toString('base64') });
    expect(replaced.documentationType).toBe('application/pdf');
    expect((await api.finance.documentation({ id: entry.id })).type).toBe('application/pdf');
    const removed = await api.finance.removeDocumentation({ id: entry.id });
    expect(removed).toMatchObject({ hasDocumentation: false, documentationType: null });
    const gone = await s.app.inject({ method: 'GET', url: `/private/finance/${entry.id}/documentation`, headers: { cookie } });
    expect([gone.statusCode, gone.json()]).toEqual([404, { message: charityMessages.noDocumentation }]);
  });

  it('saves an entry and its documentation from the page together, or neither when the file is refused', async () => {
    const api = await owner(s);
    const cookie = await cookieFor(s.deps, 3, 'boss');
    const save = (body: object) => postJson(s.app, '/private/finance/entries', body, cookie);

    const refused = await save({ ...sampleEntry, file: scriptAsPdf.toString('base64'), fileType: 'application/pdf' });
    expect([refused.statusCode, refused.json()]).toEqual([415, { message: charityMessages.documentationType }]);
    expect(await api.finance.list({ year: 2024 })).toEqual([]);
    expect((await save({ ...sampleEntry, recipient: '', file: samplePdf().toString('base64') })).json()).toEqual({ message: charityMessages.recipient });
    expect(await api.finance.list({ year: 2024 })).toEqual([]);

    const added = await save({ ...sampleEntry, file: `data:application/pdf;base64,${samplePdf().toString('base64')}`, fileType: 'application/pdf' });
    expect(added.statusCode).toBe(200);
    const entry = added.json() as { id: number };
    expect(added.json()).toMatchObject({ recipient: sampleEntry.recipient, hasDocumentation: true, documentationType: 'application/pdf' });

    // An edit with a refused file keeps the old values and the old file.
    const badEdit = await save({ id: entry.id, ...sampleEntry, item: 'Books', file: '%%%' });
    expect(badEdit.statusCode).toBe(400);
    expect(await api.finance.list({ year: 2024 })).toMatchObject([{ item: 'Cash', documentationType: 'application/pdf' }]);
    const png = await sampleImage('png');
    const edited = await save({ id: entry.id, ...sampleEntry, item: 'Books', file: png.toString('base64') });
    expect(edited.json()).toMatchObject({ id: entry.id, item: 'Books', documentationType: 'image/png' });
    expect((await api.finance.documentation({ id: entry.id })).buffer).toBe(png.toString('base64'));
    expect((await save({ id: 999, ...sampleEntry, file: png.toString('base64') })).statusCode).toBe(404);
  });

  it('exports a year as CSV, with exact values and formulas defused', async () => {
    const api = await owner(s);
    const cookie = await cookieFor(s.deps, 3, 'boss');
    await api.finance.add({ ...sampleEntry, value: '0.3', recipient: '=HYPERLINK("x")' });
    await api.finance.add({ ...sampleEntry, value: '', item: 'Books, "old"', charitable: false, date: '2024-07-04' });
    await api.finance.add({ ...sampleEntry, date: '2023-01-01' });
    const res = await s.app.inject({ method: 'GET', url: '/private/finance/export/2024', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="charity-2024.csv"');
    expect(res.body.split('\r\n')).toEqual([
      '"Date","Recipient","Item","Value in USD","Charitable","Documentation"',
      '"2024-03-01","\'=HYPERLINK(""x"")","Cash","0.30","yes","no"',
      '"2024-07-04","Food bank","Books, ""old""","","no","no"',
      '',
    ]);
    expect((await s.app.inject({ method: 'GET', url: '/private/finance/export/24', headers: { cookie } })).statusCode).toBe(400);
  });

  it('serves documentation, uploads and exports to admins only', async () => {
    const api = await owner(s);
    const entry = await api.finance.add({ ...sampleEntry, documentation: samplePdf().toString('base64') });
    const family = await cookieFor(s.deps, 2, 'family');
    const requests = [
      { method: 'GET' as const, url: `/private/finance/${entry.id}/documentation` },
      { method: 'GET' as const, url: '/private/finance/export/2024' },
      { method: 'POST' as const, url: `/private/finance/${entry.id}/documentation`, payload: { file: samplePdf().toString('base64') } },
      { method: 'POST' as const, url: '/private/finance/entries', payload: { ...sampleEntry, file: samplePdf().toString('base64') } },
    ];
    for (const request of requests) {
      expect((await s.app.inject(request)).statusCode).toBe(401);
      expect((await s.app.inject({ ...request, headers: { cookie: family } })).statusCode).toBe(403);
    }
    const res = await postJson(s.app, '/api/finance/get_charity', { year: 2024 }, family);
    expect(res.statusCode).toBe(403);
  });
});
