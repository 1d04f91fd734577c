import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { FIVETOOLS_INSTALL_COMMAND } from '@site/contracts';
import { InstallError, installFivetools, isInstalled } from '../../src/areas/fivetools/fivetools.install.ts';
import { MIRROR_CSP, acceptedEncodings } from '../../src/areas/fivetools/fivetools.http.ts';
import { callerFor, cookieFor, createUser, databases, useTestServer } from '../helpers.ts';
import { FIXTURE_SITE, fixtureFile, fixtureTarGz, fixtureZip, makeZip, tempDir } from './fixture.ts';

describe('installing a copy', () => {
  const work = tempDir();
  const target = path.join(work, 'data', '5etools');
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
  beforeEach(() => fs.rmSync(path.join(work, 'data'), { recursive: true, force: true }));

  const leftovers = () => fs.readdirSync(path.dirname(target)).filter((name) => name !== '5etools');

  it('installs a release zip (its top folder unwrapped), with .br and .gz beside the larger text files', async () => {
    const report = await installFivetools(fixtureZip(work), target);
    expect(report.target).toBe(target);
    expect(fs.readFileSync(path.join(target, 'data', 'spells.json'))).toEqual(fixtureFile('data/spells.json'));
    expect(isInstalled(target)).toBe(true);
    const br = fs.readFileSync(path.join(target, 'data', 'spells.json.br'));
    expect(zlib.brotliDecompressSync(br)).toEqual(fixtureFile('data/spells.json'));
    expect(fs.existsSync(path.join(target, 'data', 'spells.json.gz'))).toBe(true);
    // Small files are left alone.
    expect(fs.existsSync(path.join(target, 'index.html.br'))).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it('replaces the old copy with a tar.gz, and with a folder, only once the new one is complete', async () => {
    await installFivetools(fixtureZip(work), target);
    fs.writeFileSync(path.join(target, 'old-only.txt'), 'old');
    await installFivetools(await fixtureTarGz(work, 'tarball'), target);
    expect(fs.readFileSync(path.join(target, 'marker.txt'), 'utf8')).toBe('tarball');
    expect(fs.existsSync(path.join(target, 'old-only.txt'))).toBe(false);
    await installFivetools(FIXTURE_SITE, target);
    expect(fs.existsSync(path.join(target, 'marker.txt'))).toBe(false);
    expect(fs.existsSync(path.join(target, 'js', 'app.js'))).toBe(true);
    expect(leftovers()).toEqual([]);
  });

  it('keeps the old copy when the new one fails: no index.html, an entry escaping its folder, not an archive', async () => {
    await installFivetools(fixtureZip(work), target);
    const before = fs.readdirSync(target).sort();
    const noIndex = makeZip(path.join(work, 'no-index.zip'), [{ name: 'readme.txt', data: Buffer.from('hello') }]);
    await expect(installFivetools(noIndex, target)).rejects.toThrow(/No index.html in .*: is it a 5eTools release\?/);
    const escaping = makeZip(path.join(work, 'escape.zip'), [
      { name: 'index.html', data: Buffer.from('<p>hi</p>') },
      { name: '../escaped.txt', data: Buffer.from('out') },
    ]);
    await expect(installFivetools(escaping, target)).rejects.toBeInstanceOf(InstallError);
    expect(fs.existsSync(path.join(path.dirname(target), 'escaped.txt'))).toBe(false);
    const notArchive = path.join(work, 'notes.txt');
    fs.writeFileSync(notArchive, 'just text');
    await expect(installFivetools(notArchive, target)).rejects.toThrow('is not a zip or tar.gz archive, nor a folder');
    await expect(installFivetools(path.join(work, 'missing.zip'), target)).rejects.toThrow('Nothing at');
    expect(fs.readdirSync(target).sort()).toEqual(before);
    expect(leftovers()).toEqual([]);
  });

  it('leaves symbolic links out of a folder install', async () => {
    const src = path.join(work, 'with-link');
    fs.cpSync(FIXTURE_SITE, src, { recursive: true });
    fs.symlinkSync('/etc/passwd', path.join(src, 'passwd'));
    await installFivetools(src, target);
    expect(fs.existsSync(path.join(target, 'passwd'))).toBe(false);
    await expect(installFivetools(target, path.join(target, 'inner'))).rejects.toThrow(/outside the mirror folder/);
  });
});

describe('accepted encodings', () => {
  it('prefers br, then gzip, honouring q=0', () => {
    expect(acceptedEncodings('gzip, deflate, br, zstd')).toEqual(['br', 'gzip']);
    expect(acceptedEncodings('gzip;q=1, br;q=0')).toEqual(['gzip']);
    expect(acceptedEncodings('*')).toEqual(['br', 'gzip']);
    expect(acceptedEncodings(undefined)).toEqual([]);
  });
});

describe.each(databases)('the mirror at /api/5etools/ (%s)', (kind) => {
  const work = tempDir();
  const dir = path.join(work, '5etools');
  const s = useTestServer(kind, { FIVETOOLS_DIR: dir });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
  beforeEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
    s.app.inject({ method: 'GET', url, headers: { ...headers, ...(cookie ? { cookie } : {}) } });

  it('says plainly when no copy is installed', async () => {
    const user = await createUser(s.deps, 'friend', 1);
    expect(await callerFor(s.deps, user).fivetools.status()).toEqual({
      installed: false,
      url: '/api/5etools/index.html',
      command: FIVETOOLS_INSTALL_COMMAND,
    });
    const res = await get('/api/5etools/index.html', await cookieFor(s.deps, 1, 'reader'));
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('The 5eTools mirror is not installed. Install it with: npm run 5etools -- install PATH');
  });

  it('serves the copy to members with its content types, its own CSP, caching and ranges; 401 to visitors', async () => {
    await installFivetools(fixtureZip(work), dir);
    const user = await createUser(s.deps, 'friend', 1);
    expect((await callerFor(s.deps, user).fivetools.status()).installed).toBe(true);
    const cookie = await cookieFor(s.deps, 1, 'reader');

    expect((await get('/api/5etools/index.html')).statusCode).toBe(401);
    expect((await get('/api/5etools/index.html', await cookieFor(s.deps, 0, 'pending'))).statusCode).toBe(403);

    const page = await get('/api/5etools/index.html', cookie);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(MIRROR_CSP);
    expect(page.headers['cache-control']).toBe('private, max-age=300');
    expect(page.body).toBe(fixtureFile('index.html').toString('utf8'));
    expect((await get('/api/5etools/', cookie)).body).toBe(page.body);
    expect((await get('/api/5etools/js/app.js', cookie)).headers['content-type']).toBe('application/javascript; charset=utf-8');

    const etag = page.headers.etag as string;
    expect(etag).toBeTruthy();
    expect((await get('/api/5etools/index.html', cookie, { 'if-none-match': etag })).statusCode).toBe(304);

    const part = await get('/api/5etools/data/spells.json', cookie, { range: 'bytes=0-9' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-9/${fixtureFile('data/spells.json').length}`);
    expect(part.body).toBe(fixtureFile('data/spells.json').subarray(0, 10).toString('utf8'));
    expect((await get('/api/5etools/data/spells.json', cookie, { range: 'bytes=999999-' })).statusCode).toBe(416);

    // The site's own pages keep their strict policy.
    const site = await s.app.inject({ method: 'GET', url: '/healthz' });
    expect(site.headers['content-security-policy']).toContain("script-src 'self';");
    expect(site.headers['content-security-policy']).not.toContain('unsafe-eval');
  });

  it('sends the compressed file the browser accepts', async () => {
    await installFivetools(fixtureZip(work), dir);
    const cookie = await cookieFor(s.deps, 1, 'reader');
    const json = fixtureFile('data/spells.json');
    const br = await s.app.inject({ method: 'GET', url: '/api/5etools/data/spells.json', headers: { cookie, 'accept-encoding': 'gzip, br' } });
    expect([br.statusCode, br.headers['content-encoding'], br.headers['content-type'], br.headers.vary]).toEqual([
      200,
      'br',
      'application/json; charset=utf-8',
      'Accept-Encoding',
    ]);
    expect(zlib.brotliDecompressSync(br.rawPayload)).toEqual(json);
    const gz = await s.app.inject({ method: 'GET', url: '/api/5etools/data/spells.json', headers: { cookie, 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload)).toEqual(json);
    const plain = await s.app.inject({ method: 'GET', url: '/api/5etools/data/spells.json', headers: { cookie } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload).toEqual(json);
  });

  it('refuses paths outside the copy, dotfiles, and redirects folders to their index', async () => {
    await installFivetools(fixtureZip(work), dir);
    fs.writeFileSync(path.join(work, 'secret.txt'), 'TOP-SECRET-CONTENT');
    const cookie = await cookieFor(s.deps, 1, 'reader');
    for (const url of [
      '/api/5etools/../secret.txt',
      '/api/5etools/%2e%2e/secret.txt',
      '/api/5etools/..%2fsecret.txt',
      '/api/5etools/data/..%2f..%2fsecret.txt',
      '/api/5etools/%2e%2e%5csecret.txt',
      '/api/5etools/.install.json',
      '/api/5etools/index.html%00.txt',
    ]) {
      const res = await get(url, cookie);
      expect([url, res.statusCode >= 400 && res.statusCode < 500]).toEqual([url, true]);
      expect(res.body).not.toContain('TOP-SECRET-CONTENT');
    }
    const folder = await get('/api/5etools/data', cookie);
    expect([folder.statusCode, folder.headers.location]).toEqual([302, '/api/5etools/data/']);
  });

  it('serves only regular files whose real path stays inside the folder: links out of it are refused', async () => {
    await installFivetools(fixtureZip(work), dir);
    const outside = path.join(work, 'outside');
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, 'secret.json'), '{"secret":"TOP-SECRET-CONTENT"}');
    // Links placed inside the mirror: to /etc/passwd, to a file and a folder outside, a dangling one,
    // a compressed twin that leads out, and one that stays inside (served).
    fs.symlinkSync('/etc/passwd', path.join(dir, 'passwd.txt'));
    fs.symlinkSync(path.join(outside, 'secret.json'), path.join(dir, 'data', 'secret.json'));
    fs.symlinkSync(outside, path.join(dir, 'elsewhere'));
    fs.symlinkSync(path.join(outside, 'gone.json'), path.join(dir, 'dangling.json'));
    fs.writeFileSync(path.join(outside, 'evil.br'), 'TOP-SECRET-CONTENT');
    fs.rmSync(path.join(dir, 'data', 'spells.json.br'));
    fs.symlinkSync(path.join(outside, 'evil.br'), path.join(dir, 'data', 'spells.json.br'));
    fs.symlinkSync(path.join(dir, 'index.html'), path.join(dir, 'start.html'));
    const cookie = await cookieFor(s.deps, 1, 'reader');
    for (const url of ['/api/5etools/passwd.txt', '/api/5etools/data/secret.json', '/api/5etools/elsewhere/secret.json', '/api/5etools/elsewhere/', '/api/5etools/dangling.json']) {
      const res = await get(url, cookie);
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(res.body).not.toMatch(/TOP-SECRET-CONTENT|root:/);
    }
    const spells = await get('/api/5etools/data/spells.json', cookie, { 'accept-encoding': 'br, gzip' });
    expect([spells.statusCode, spells.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(spells.rawPayload.toString('latin1')).not.toContain('TOP-SECRET-CONTENT');
    const inside = await get('/api/5etools/start.html', cookie);
    expect(inside.statusCode).toBe(200);
  });
});
