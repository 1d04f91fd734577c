import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { authMessages } from '@site/contracts';
import { buildApp } from '../src/app.ts';
import { ConfigError } from '../src/config.ts';
import { listen } from '../src/http/ports.ts';
import { serverEntryArgs } from '../src/testing/cli-fixtures.ts';
import { cookieFor, databases, rawRequest, TEST_PASSWORD, testConfig, useTestServer, type TestServer } from './helpers.ts';


describe('TRUST_PROXY as a hop count or true (issue 33)', () => {
  it('is refused when HOST is not loopback, with one line saying what to set instead', () => {
    for (const trust of ['1', '2', 'true']) {
      expect(() => testConfig({ TRUST_PROXY: trust })).toThrow(ConfigError);
      expect(() => testConfig({ TRUST_PROXY: trust, HOST: '192.168.1.10' })).toThrow(
        new RegExp(`^TRUST_PROXY=${trust} believes X-Forwarded-\\* from anyone who can reach HOST=192\\.168\\.1\\.10, .*TRUST_PROXY=127\\.0\\.0\\.1.*TRUST_PROXY_ONLY_PROXY_CONNECTS=true`),
      );
    }
  });

  it('is taken on a loopback HOST, or when the owner vouches that only the proxy connects; addresses and CIDRs always', () => {
    for (const host of ['127.0.0.1', '127.3.4.5', '::1', 'localhost']) expect(testConfig({ TRUST_PROXY: '1', HOST: host }).trustProxy).toBe(1);
    expect(testConfig({ TRUST_PROXY: '1', TRUST_PROXY_ONLY_PROXY_CONNECTS: 'true' }).trustProxy).toBe(1);
    expect(testConfig({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toEqual(['10.0.0.0/8']);
    expect(testConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(() => testConfig({ TRUST_PROXY: '1', TRUST_PROXY_ONLY_PROXY_CONNECTS: 'maybe' })).toThrow(/TRUST_PROXY_ONLY_PROXY_CONNECTS/);
  });

  it('stops the server at start: exit 1 and one line, before it opens the database or a port', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-trust-'));
    try {
      const run = spawnSync(process.execPath, serverEntryArgs(), {
        cwd: os.tmpdir(),
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, HOST: '0.0.0.0', PORT: '0', TRUST_PROXY: '1', DATA_DIR: dataDir, DATABASE_URL: '' },
      });
      expect(run.status).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^site: TRUST_PROXY=1 believes X-Forwarded-\* from anyone who can reach HOST=0\.0\.0\.0/);
      expect(run.stdout).not.toContain('listening');
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

const signup = (s: TestServer, remoteAddress: string, headers: Record<string, string>) =>
  s.app.inject({
    method: 'POST',
    url: '/api/signup_attempt',
    remoteAddress,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ signupName: 'Owner', signupPass: TEST_PASSWORD, signupConfPass: TEST_PASSWORD }),
  });

/** recipes.list opens to every member on port 8443 only. */
const recipesOn = (s: TestServer, remoteAddress: string, cookie: string, headers: Record<string, string> = {}) =>
  s.app.inject({ method: 'GET', url: '/trpc/recipes.list', remoteAddress, headers: { cookie, ...headers } });

describe.each(databases)('a proxy named by CIDR (%s)', (kind) => {
  const s = useTestServer(kind, { TRUST_PROXY: '10.9.0.0/16' });

  it('ignores X-Forwarded-For: 127.0.0.1 from an address outside it: the owner setup still wants the code', async () => {
    const spoofed = await signup(s, '192.168.1.50', { 'x-forwarded-for': '127.0.0.1' });
    expect([spoofed.statusCode, spoofed.json().message]).toEqual([403, authMessages.setupCodeNeeded]);
    const viaProxy = await signup(s, '10.9.3.4', { 'x-forwarded-for': '127.0.0.1' });
    expect([viaProxy.statusCode, viaProxy.json().authenticated]).toEqual([200, 3]);
  });

  it('ignores X-Forwarded-Port: 8443 from an address outside it, and honours it from the proxy', async () => {
    const member = await cookieFor(s.deps, 1);
    expect((await recipesOn(s, '192.168.1.50', member, { 'x-forwarded-port': '8443' })).statusCode).toBe(403);
    expect((await recipesOn(s, '10.9.200.1', member, { 'x-forwarded-port': '8443' })).statusCode).toBe(200);
    expect((await recipesOn(s, '10.9.200.1', member, { 'x-forwarded-port': '443' })).statusCode).toBe(403);
  });
});

describe.each(databases)('EXTRA_PORT other than 8443 (issue 30: a proxy forwards its 8443 there) (%s)', (kind) => {
  const s = useTestServer(kind);

  it("counts as the 8443 listener: a member reads the 8443 pages' calls there, not on PORT", async () => {
    const app = await buildApp(s.deps);
    try {
      // extraPort 0: whatever free port the system gives, never 8443 itself.
      const [main = '', extra = ''] = await listen(app, { port: 0, host: '127.0.0.1', extraPort: 0 });
      expect(new URL(extra).port).not.toBe('8443');
      const member = await cookieFor(s.deps, 1);
      expect((await rawRequest(extra, 'GET', '/trpc/recipes.list', { cookie: member })).status).toBe(200);
      expect((await rawRequest(main, 'GET', '/trpc/recipes.list', { cookie: member })).status).toBe(403);
      // A client's own X-Forwarded-Port does not open PORT (nobody is trusted here).
      expect((await rawRequest(main, 'GET', '/trpc/recipes.list', { cookie: member, 'x-forwarded-port': '8443' })).status).toBe(403);
    } finally {
      await app.close();
    }
  });
});
