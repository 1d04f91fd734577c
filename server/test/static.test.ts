import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, createDeps } from '../src/app.ts';
import { createTestDb, testConfig, type TestDb } from './helpers.ts';

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
    handle = await createTestDb('pglite');
    app = await buildApp(createDeps(testConfig({ CLIENT_DIST: dist }), handle.db));
  });
  afterAll(async () => {
    await app.close();
    await handle.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves the index page at / and hashed assets with a long cache', async () => {
    const index = await app.inject({ method: 'GET', url: '/' });
    expect([index.statusCode, index.body]).toEqual([200, '<!doctype html><title>app</title>']);
    expect(index.headers['cache-control']).toBe('no-cache');
    const asset = await app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
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
