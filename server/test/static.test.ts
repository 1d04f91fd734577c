import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, createDeps } from '../src/app.ts';
import { createTestDb, testConfig, type TestDb } from './helpers.ts';

/** The app serving the client build in `dist`, on a database of its own. */
async function serveDist(dist: string): Promise<{ handle: TestDb; app: FastifyInstance }> {
  const handle = await createTestDb('pglite');
  return { handle, app: await buildApp(createDeps(testConfig({ CLIENT_DIST: dist }), handle.db)) };
}

async function stop(handle: TestDb, app: FastifyInstance, dist: string): Promise<void> {
  await app.close();
  await handle.close();
  fs.rmSync(dist, { recursive: true, force: true });
}

describe('serving the built client', () => {
  let handle: TestDb;
  let app: FastifyInstance;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'site-client-'));

  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.mkdirSync(path.join(dist, 'about'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
    fs.writeFileSync(path.join(dist, 'about', 'index.html'), '<!doctype html><title>about</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'main-abc123.js'), 'console.log(1)');
    ({ handle, app } = await serveDist(dist));
  });
  afterAll(() => stop(handle, app, dist));

  it('serves the index page at / and hashed assets with a long cache', async () => {
    const index = await app.inject({ method: 'GET', url: '/' });
    expect([index.statusCode, index.body]).toEqual([200, '<!doctype html><title>app</title>']);
    expect(index.headers['cache-control']).toBe('no-cache');
    const asset = await app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it("sends the build's brotli or gzip file to a browser that accepts it, with Vary: Accept-Encoding", async () => {
    const script = `export const text = ${JSON.stringify('compressible '.repeat(200))};`;
    const page = `<!doctype html><title>about</title><p>${'words '.repeat(300)}</p>`;
    for (const [file, text] of [
      [path.join(dist, 'assets', 'big-def456.js'), script],
      [path.join(dist, 'about', 'big', 'index.html'), page],
    ] as const) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      fs.writeFileSync(`${file}.br`, brotliCompressSync(text));
      fs.writeFileSync(`${file}.gz`, gzipSync(text));
    }
    for (const [url, text, type] of [
      ['/assets/big-def456.js', script, 'javascript'],
      ['/about/big', page, 'text/html'],
    ] as const) {
      const get = (acceptEncoding?: string) => app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
      const br = await get('gzip, deflate, br, zstd');
      expect([br.statusCode, br.headers['content-encoding'], br.headers.vary]).toEqual([200, 'br', 'accept-encoding']);
      expect(br.headers['content-type']).toContain(type);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(text);
      expect(br.rawPayload.length).toBeLessThan(text.length / 4);
      const gz = await get('gzip');
      expect([gz.headers['content-encoding'], gz.headers.vary]).toEqual(['gzip', 'accept-encoding']);
      expect(gunzipSync(gz.rawPayload).toString()).toBe(text);
      const plain = await get();
      expect([plain.headers['content-encoding'], plain.headers.vary, plain.body]).toEqual([undefined, 'accept-encoding', text]);
    }
    // A file the build left uncompressed (too small to gain) goes out as it is.
    const small = await app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect([small.statusCode, small.headers['content-encoding'], small.body]).toEqual([200, undefined, 'console.log(1)']);
  });

  it('serves a prerendered page from <path>/index.html', async () => {
    for (const url of ['/about', '/about/', '/about?x=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect([res.statusCode, res.body]).toEqual([200, '<!doctype html><title>about</title>']);
    }
  });

  it('answers every unknown page with the index page and 200, so the client shows its own view', async () => {
    for (const url of ['/personal', '/no/such/page', '/logout', '/../../etc/passwd', '/about/../index.html/x']) {
      const res = await app.inject({ method: 'GET', url });
      expect([url, res.statusCode, res.body]).toEqual([url, 200, '<!doctype html><title>app</title>']);
    }
  });

  it('serves other top-level files of the build, and answers a broken URL with 400', async () => {
    fs.writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *');
    const res = await app.inject({ method: 'GET', url: '/robots.txt' });
    expect([res.statusCode, res.body]).toEqual([200, 'User-agent: *']);
    expect((await app.inject({ method: 'GET', url: '/%E0%A4%A' })).statusCode).toBe(400);
  });

  it('answers unknown server paths with a JSON 404, never the page', async () => {
    for (const url of ['/api/nothing', '/trpc', '/private/x.jpg', '/assets/missing.js', '/healthz/x']) {
      const res = await app.inject({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(typeof res.json().message).toBe('string');
    }
  });

  it('starts without a built client and says so at /', async () => {
    const bare = await buildApp(createDeps(testConfig(), handle.db));
    const res = await bare.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('client is not built');
    await bare.close();
  });
});

describe("a page's own chunks asked for with the HTML", () => {
  let handle: TestDb;
  let app: FastifyInstance;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'site-client-hints-'));
  const index = '<!doctype html><html><head><title>app</title></head><body><div id="root"></div></body></html>';
  const links = {
    '/house': '<link rel="modulepreload" crossorigin href="/assets/HousePage-a1.js">',
    '/personal/pictures': '<link rel="modulepreload" crossorigin href="/assets/PicturesPage-b2.js"><link rel="preload" as="style" crossorigin href="/assets/PicturesPage-b2.css">',
    '/personal/pictures/albums': '<link rel="modulepreload" crossorigin href="/assets/AlbumsPage-c3.js">',
    '/personal': '',
  };
  const calls = {
    '/personal/pictures': '<link rel="preload" as="fetch" href="/trpc/pictures.page?batch=1&amp;input=%7B%7D" crossorigin>',
    '/personal': '<link rel="preload" as="fetch" href="/trpc/hub.welcome?batch=1&amp;input=%7B%7D" crossorigin>',
  };

  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, '.vite'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), index);
    fs.writeFileSync(path.join(dist, '.vite', 'route-preloads.json'), JSON.stringify(links));
    fs.writeFileSync(path.join(dist, '.vite', 'address-preloads.json'), JSON.stringify(calls));
    ({ handle, app } = await serveDist(dist));
  });
  afterAll(() => stop(handle, app, dist));

  const withLinks = (href: keyof typeof links, extra = '') => index.replace('</head>', `${links[href]}${extra}</head>`);

  it("adds the page's links to the head of index.html, the longest page the address is under", async () => {
    for (const [url, href] of [
      ['/house', '/house'],
      ['/house/', '/house'],
      ['/personal/pictures/12?print', '/personal/pictures'],
      ['/personal/pictures/albums/3', '/personal/pictures/albums'],
    ] as const) {
      const res = await app.inject({ method: 'GET', url });
      expect([url, res.statusCode, res.headers['content-type'], res.headers['cache-control'], res.body]).toEqual([url, 200, 'text/html; charset=utf-8', 'no-cache', withLinks(href)]);
    }
  });

  it("adds the preload of a page's first calls at the page's own address only, after its chunks", async () => {
    for (const [url, body] of [
      ['/personal/pictures', withLinks('/personal/pictures', calls['/personal/pictures'])],
      ['/personal/pictures/', withLinks('/personal/pictures', calls['/personal/pictures'])],
      ['/personal/pictures/month/2', withLinks('/personal/pictures')],
      ['/personal', withLinks('/personal', calls['/personal'])],
    ] as const) {
      const res = await app.inject({ method: 'GET', url });
      expect([url, res.statusCode, res.body]).toEqual([url, 200, body]);
    }
  });

  it('sends index.html as it is for an address of no page, a page with nothing beyond the shell, or a sub-path of a page without sub-paths', async () => {
    for (const url of ['/', '/no/such/page', '/personal/x', '/house/extra', '/housework']) {
      const res = await app.inject({ method: 'GET', url });
      expect([url, res.statusCode, res.body]).toEqual([url, 200, index]);
    }
  });

  it('compresses it as the browser accepts, honouring q-values, with Vary: Accept-Encoding', async () => {
    const get = (acceptEncoding: string) => app.inject({ method: 'GET', url: '/house', headers: { 'accept-encoding': acceptEncoding } });
    const br = await get('gzip, deflate, br');
    expect([br.headers['content-encoding'], br.headers.vary, brotliDecompressSync(br.rawPayload).toString()]).toEqual(['br', 'accept-encoding', withLinks('/house')]);
    const gz = await get('gzip, br;q=0');
    expect([gz.headers['content-encoding'], gunzipSync(gz.rawPayload).toString()]).toEqual(['gzip', withLinks('/house')]);
    const plain = await get('identity');
    expect([plain.headers['content-encoding'], plain.body]).toEqual([undefined, withLinks('/house')]);
  });
});
