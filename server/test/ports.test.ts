import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { listen, proxyTrust, servedPort } from '../src/http/ports.ts';
import { databases, rawRequest, testConfig, useListeningServer, useTestServer } from './helpers.ts';

/** A request as servedPort reads it: the connection's two ends and the headers. */
const request = (remoteAddress: string, localPort: number, headers: Record<string, string> = {}) =>
  ({ raw: { socket: { remoteAddress, localPort } }, headers }) as unknown as FastifyRequest;

describe('the port a request was served on', () => {
  it('is the local port of its connection; Host and X-Forwarded-* from an untrusted peer change nothing', () => {
    const config = testConfig();
    expect(servedPort(request('192.168.1.20', 8080), config)).toBe(8080);
    expect(servedPort(request('192.168.1.20', 8443), config)).toBe(8443);
    const spoofed = { host: 'localhost:8443', 'x-forwarded-host': 'localhost:8443', 'x-forwarded-port': '8443' };
    expect(servedPort(request('192.168.1.20', 8080, spoofed), config)).toBe(8080);
    // A proxy that TRUST_PROXY names elsewhere is not this peer.
    expect(servedPort(request('192.168.1.20', 8080, spoofed), testConfig({ TRUST_PROXY: '10.0.0.1' }))).toBe(8080);
  });

  it("is a trusted proxy's X-Forwarded-Port (the last entry, which that proxy wrote)", () => {
    const headers = { 'x-forwarded-port': '9999, 8443' };
    expect(servedPort(request('127.0.0.1', 8080, headers), testConfig({ TRUST_PROXY: '127.0.0.1' }))).toBe(8443);
    expect(servedPort(request('10.1.2.3', 8080, headers), testConfig({ TRUST_PROXY: '10.0.0.0/8' }))).toBe(8443);
    expect(servedPort(request('10.1.2.3', 8080, headers), testConfig({ TRUST_PROXY: '1', HOST: '127.0.0.1' }))).toBe(8443);
    expect(servedPort(request('127.0.0.1', 8080, { 'x-forwarded-port': 'https' }), testConfig({ TRUST_PROXY: 'loopback' }))).toBe(8080);
    expect(servedPort(request('127.0.0.1', 8080, { host: 'localhost:8443' }), testConfig({ TRUST_PROXY: 'loopback' }))).toBe(8080);
  });

  it('reads TRUST_PROXY as Fastify does: addresses, CIDRs, names, hop counts', () => {
    expect(proxyTrust(['loopback'])('::1', 0)).toBe(true);
    expect(proxyTrust(['10.0.0.0/8'])('11.0.0.1', 0)).toBe(false);
    expect(proxyTrust(2)('1.2.3.4', 1)).toBe(true);
    expect(proxyTrust(2)('1.2.3.4', 2)).toBe(false);
    expect(proxyTrust(false)('127.0.0.1', 0)).toBe(false);
  });

  it('EXTRA_PORT is read from the environment', () => {
    expect(testConfig().extraPort).toBeNull();
    expect(testConfig({ EXTRA_PORT: '8443' }).extraPort).toBe(8443);
    expect(() => testConfig({ EXTRA_PORT: '0' })).toThrow(/EXTRA_PORT/);
  });
});

describe.each(databases)('the second listener (%s)', (kind) => {
  const s = useTestServer(kind);
  const listening = useListeningServer(s);

  it('serves the same site (guards and headers included) and stops with the server', async () => {
    const health = await rawRequest(listening.extra, 'GET', '/healthz');
    expect([health.status, health.headers['x-content-type-options']]).toEqual([200, 'nosniff']);
    const foreign = await rawRequest(listening.extra, 'GET', '/healthz', { host: 'evil.example' });
    expect(foreign.status).toBe(421);
    const crossSite = await rawRequest(listening.extra, 'POST', '/trpc/auth.logout', { origin: 'https://evil.example', 'content-type': 'application/json' }, '{}');
    expect(crossSite.status).toBe(403);
  });

  it('closes with the app: no connection is taken once it has stopped', async () => {
    const app = await buildApp(s.deps);
    const [, extra] = await listen(app, { port: 0, host: '127.0.0.1', extraPort: 0 });
    expect((await rawRequest(extra ?? '', 'GET', '/healthz')).status).toBe(200);
    await app.close();
    await expect(rawRequest(extra ?? '', 'GET', '/healthz')).rejects.toThrow(/ECONNREFUSED/);
  });
});
