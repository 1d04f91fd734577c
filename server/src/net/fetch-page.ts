import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import zlib from 'node:zlib';
import { AppError } from '../errors.ts';
import type { AddressGuard, NetPolicy } from './address-guard.ts';

export type FetchLimits = { maxBytes: number; timeoutMs: number; maxRedirects: number };

/** What a failed fetch says: the guard's refusals, and the page's own failures. */
export type FetchMessages = {
  status: (status: number) => string;
  tooLarge: (mb: number) => string;
  timeout: (seconds: number) => string;
  unreachable: string;
  tooManyRedirects: string;
  notAccepted: string;
};

export type FetchedPage = { url: string; contentType: string; text: string };

/** Connects to `address` whatever the host name resolves to now: the address the guard checked. */
export const pinnedLookup =
  (address: string): LookupFunction =>
  (_host, options, callback) => {
    const family = net.isIP(address);
    if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

function request(url: URL, address: string, signal: AbortSignal, limits: FetchLimits, messages: FetchMessages, accept: string): Promise<Answer> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const req = client.get(
      url,
      {
        lookup: pinnedLookup(address),
        signal,
        headers: {
          accept,
          'accept-encoding': 'gzip, deflate, br',
          'accept-language': 'en;q=0.9, *;q=0.5',
          'user-agent': 'Mozilla/5.0 (compatible; family-site recipe import)',
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          resolve({ status, headers: res.headers, body: Buffer.alloc(0) });
          return;
        }
        const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
        const declared = Number(res.headers['content-length']);
        if (encoding === '' && Number.isFinite(declared) && declared > limits.maxBytes) {
          res.destroy();
          reject(new AppError('PAYLOAD_TOO_LARGE', messages.tooLarge(Math.round(limits.maxBytes / 1e6))));
          return;
        }
        const decoded =
          encoding === 'gzip' || encoding === 'x-gzip'
            ? res.pipe(zlib.createGunzip())
            : encoding === 'deflate'
              ? res.pipe(zlib.createInflate())
              : encoding === 'br'
                ? res.pipe(zlib.createBrotliDecompress())
                : res;
        const chunks: Buffer[] = [];
        let size = 0;
        decoded.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxBytes) {
            res.destroy();
            decoded.destroy();
            reject(new AppError('PAYLOAD_TOO_LARGE', messages.tooLarge(Math.round(limits.maxBytes / 1e6))));
            return;
          }
          chunks.push(chunk);
        });
        decoded.on('end', () => resolve({ status, headers: res.headers, body: Buffer.concat(chunks) }));
        decoded.on('error', reject);
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

/** The text of a body in the charset its header or its <meta> names (UTF-8 when neither does or the name is unknown). */
function decodeBody(body: Buffer, contentType: string): string {
  const declared = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1] ?? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/**
 * Fetches a member's link the way the guard allows: every hop (the link and each redirect) is
 * resolved and checked by `guard` and connected to the very address checked; the whole fetch has
 * one time limit and the body (after decompression) a size limit. `accepts` says which content
 * types are wanted.
 */
export async function fetchPage(
  raw: string,
  options: { guard: AddressGuard; policy: NetPolicy; limits: FetchLimits; messages: FetchMessages; accepts: (contentType: string) => boolean; accept: string },
): Promise<FetchedPage> {
  const { guard, policy, limits, messages } = options;
  let url = guard.parseUrl(raw);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  try {
    for (let hop = 0; hop <= limits.maxRedirects; hop++) {
      const [address] = await guard.resolveAllowed(url.hostname, policy);
      let answer: Answer;
      try {
        answer = await request(url, address ?? '', controller.signal, limits, messages, options.accept);
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (controller.signal.aborted) throw new AppError('BAD_REQUEST', messages.timeout(Math.max(1, Math.round(limits.timeoutMs / 1000))));
        throw new AppError('BAD_REQUEST', messages.unreachable);
      }
      const location = answer.headers.location;
      if (answer.status >= 300 && answer.status < 400 && location) {
        let next: string;
        try {
          next = new URL(location, url).toString();
        } catch {
          throw new AppError('BAD_REQUEST', messages.unreachable);
        }
        url = guard.parseUrl(next);
        continue;
      }
      if (answer.status < 200 || answer.status >= 300) throw new AppError('BAD_REQUEST', messages.status(answer.status));
      const contentType = String(answer.headers['content-type'] ?? '');
      if (!options.accepts(contentType.toLowerCase())) throw new AppError('UNSUPPORTED_MEDIA_TYPE', messages.notAccepted);
      return { url: url.toString(), contentType, text: decodeBody(answer.body, contentType) };
    }
    throw new AppError('BAD_REQUEST', messages.tooManyRedirects);
  } finally {
    clearTimeout(timer);
  }
}
