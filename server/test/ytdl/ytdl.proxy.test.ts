import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ytdlMessages } from '@site/contracts';
import { startGuardProxy, type GuardProxy } from '../../src/areas/ytdl/ytdl.proxy.ts';

/**
 * The guard proxy on its own, with a plain HTTP client in yt-dlp's place: what it relays must arrive
 * byte for byte, counted, and stop at the size limit; what it refuses must never be reached.
 */
const body = randomBytes(3 * 1024 * 1024 + 123);
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
let origin: http.Server;
let originPort: number;
let proxy: GuardProxy;

beforeAll(async () => {
  origin = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      if (req.url === '/chunked') {
        res.write(body.subarray(0, 1000));
        return void res.end(body.subarray(1000, 5000));
      }
      if (req.url === '/cut') {
        // Promises the whole body, then hangs up halfway.
        res.writeHead(200, { 'content-length': body.length });
        return void res.write(body.subarray(0, 100_000), () => res.destroy());
      }
      res.writeHead(200, { 'content-length': body.length, 'x-origin': 'yes' });
      res.end(req.method === 'HEAD' ? undefined : body);
    });
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  // 127.0.0.2 stands for the private network; 127.0.0.1 for the internet.
  proxy = await startGuardProxy({ allowPrivate: false, isBlocked: (address) => address === '127.0.0.2' });
});

afterAll(async () => {
  await proxy.close();
  origin.closeAllConnections();
  await new Promise((resolve) => origin.close(resolve));
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; complete: boolean };

/** A request through the proxy as yt-dlp makes it: the absolute URL, the session's credentials. */
function viaProxy(proxyUrl: string, target: string, opts: { method?: string; body?: Buffer; auth?: boolean } = {}): Promise<Answer> {
  const p = new URL(proxyUrl);
  const headers: http.OutgoingHttpHeaders = {};
  if (opts.auth !== false) headers['proxy-authorization'] = `Basic ${Buffer.from(`${p.username}:${p.password}`).toString('base64')}`;
  if (opts.body) headers['content-length'] = opts.body.length;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: p.hostname, port: p.port, method: opts.method ?? 'GET', path: target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const done = (complete: boolean) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), complete });
      res.on('end', () => done(res.complete));
      res.on('error', () => done(false));
      res.on('aborted', () => done(false));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('the guard proxy relays yt-dlp\'s connections', () => {
  it('passes a plain HTTP answer byte for byte, counts it, and sends the request on with the path only', async () => {
    const session = proxy.open(() => true);
    try {
      const answer = await viaProxy(session.url, `http://127.0.0.1:${originPort}/video.mp4?x=1`);
      expect(answer.status).toBe(200);
      expect(answer.headers['x-origin']).toBe('yes');
      expect(answer.body.equals(body)).toBe(true);
      expect(session.tunnel.bytes).toBeGreaterThan(body.length);
      const request = seen.at(-1);
      expect(request?.url).toBe('/video.mp4?x=1');
      expect(request?.headers.host).toBe(`127.0.0.1:${originPort}`);
      // The credentials are for the proxy alone.
      expect(request?.headers['proxy-authorization']).toBeUndefined();
    } finally {
      session.close();
    }
  });

  it('carries a request body and a chunked answer intact, and HEAD without a body', async () => {
    const session = proxy.open(() => true);
    try {
      const sent = randomBytes(50_000);
      const posted = await viaProxy(session.url, `http://127.0.0.1:${originPort}/api`, { method: 'POST', body: sent });
      expect(posted.status).toBe(200);
      expect(seen.at(-1)?.body.equals(sent)).toBe(true);
      const chunked = await viaProxy(session.url, `http://127.0.0.1:${originPort}/chunked`);
      expect(chunked.body.equals(body.subarray(0, 5000))).toBe(true);
      const head = await viaProxy(session.url, `http://127.0.0.1:${originPort}/video.mp4`, { method: 'HEAD' });
      expect([head.status, head.headers['content-length'], head.body.length]).toEqual([200, String(body.length), 0]);
    } finally {
      session.close();
    }
  });

  it('cuts yt-dlp\'s answer when the host cuts its own, so it never looks complete', async () => {
    const session = proxy.open(() => true);
    try {
      const answer = await viaProxy(session.url, `http://127.0.0.1:${originPort}/cut`);
      expect(answer.complete).toBe(false);
      expect(answer.body.length).toBeLessThan(body.length);
    } finally {
      session.close();
    }
  });

  it('cuts every connection of a download past its size limit', async () => {
    const limit = 1024 * 1024;
    const session = proxy.open((total) => total <= limit);
    try {
      const answer = await viaProxy(session.url, `http://127.0.0.1:${originPort}/video.mp4`).catch(() => null);
      expect(answer === null || !answer.complete).toBe(true);
      expect(answer?.body.length ?? 0).toBeLessThan(limit + 256 * 1024);
    } finally {
      session.close();
    }
  });

  it('refuses a caller without the session\'s credentials, and a private address, without connecting', async () => {
    const before = seen.length;
    const session = proxy.open(() => true);
    try {
      expect((await viaProxy(session.url, `http://127.0.0.1:${originPort}/x`, { auth: false })).status).toBe(407);
      expect((await viaProxy(session.url, `http://127.0.0.2:${originPort}/x`)).status).toBe(403);
      expect(session.tunnel.refusal?.message).toBe(ytdlMessages.privateHost);
      expect((await viaProxy(session.url, 'ftp://127.0.0.1/x')).status).toBe(400);
      expect(seen.length).toBe(before);
    } finally {
      session.close();
    }
  });

  it('closes a kept-alive connection that asks again while a host that ignored `connection: close` holds it', async () => {
    // A host that answers and keeps its connection open whatever the request said.
    let requests = 0;
    const stubborn = net.createServer((socket) =>
      socket.on('data', () => {
        requests++;
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
      }),
    );
    await new Promise<void>((resolve) => stubborn.listen(0, '127.0.0.1', resolve));
    const port = (stubborn.address() as AddressInfo).port;
    const session = proxy.open(() => true);
    const p = new URL(session.url);
    const auth = Buffer.from(`${p.username}:${p.password}`).toString('base64');
    const ask = `GET http://127.0.0.1:${port}/a HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`;
    try {
      const socket = net.connect({ host: p.hostname, port: Number(p.port) });
      const closed = new Promise<string>((resolve) => {
        let got = '';
        socket.on('data', (c: Buffer) => {
          got += c.toString();
          // The first answer is whole: ask again on the same connection.
          if (got.endsWith('ok') && got.split('ok').length === 2) socket.write(ask);
        });
        socket.on('close', () => resolve(got));
        socket.on('error', () => undefined);
      });
      socket.write(ask);
      const got = await closed;
      expect(got.startsWith('HTTP/1.1 200 OK')).toBe(true);
      expect(got.split('HTTP/1.1').length - 1).toBe(1);
      expect(requests).toBe(1);
    } finally {
      session.close();
      stubborn.close();
    }
  });

  it('opens a CONNECT tunnel to an allowed address and relays both ways, counted', async () => {
    const echo = net.createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const port = (echo.address() as AddressInfo).port;
    const session = proxy.open(() => true);
    const p = new URL(session.url);
    try {
      const socket = net.connect({ host: p.hostname, port: Number(p.port) });
      const auth = Buffer.from(`${p.username}:${p.password}`).toString('base64');
      const payload = randomBytes(200_000);
      const received = await new Promise<Buffer>((resolve, reject) => {
        let got = Buffer.alloc(0);
        let open = false;
        socket.on('data', (c: Buffer) => {
          got = Buffer.concat([got, c]);
          if (!open) {
            const end = got.indexOf('\r\n\r\n');
            if (end < 0) return;
            expect(got.subarray(0, end).toString()).toBe('HTTP/1.1 200 Connection Established');
            got = got.subarray(end + 4);
            open = true;
            socket.write(payload);
          }
          if (got.length >= payload.length) resolve(got);
        });
        socket.on('error', reject);
        socket.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`);
      });
      expect(received.equals(payload)).toBe(true);
      expect(session.tunnel.bytes).toBe(payload.length);
      socket.destroy();
    } finally {
      session.close();
      await new Promise((resolve) => echo.close(resolve));
    }
  });
});
