import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import send, { type SendOptions } from '@fastify/send';
import { FIVETOOLS_INSTALL_COMMAND } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import type { HttpRegistrar } from '../../http/routes.ts';
import { COMPRESSED_SUFFIX, isCompressible } from './fivetools.install.ts';

const PREFIX = '/api/5etools';

/**
 * The mirror's own Content-Security-Policy, replacing the site's strict one on its responses only:
 * 5eTools runs inline scripts, eval-built code and blob: workers, which the rest of the site never
 * allows. It still loads nothing from elsewhere except images, and only this site may frame it.
 */
export const MIRROR_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "media-src 'self' data: blob:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** Members only, and nothing shared caches may keep; ETag and Last-Modified make revalidation cheap. */
const CACHE_CONTROL = 'private, max-age=300';

/** The encodings the client accepts, in the server's order of preference. */
export function acceptedEncodings(header: string | string[] | undefined): ('br' | 'gzip')[] {
  const value = (Array.isArray(header) ? header.join(',') : (header ?? '')).toLowerCase();
  const q = new Map<string, number>();
  for (const part of value.split(',')) {
    const [token, ...params] = part.trim().split(';');
    if (!token) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(token.trim(), qParam ? Number(qParam.slice(2)) || 0 : 1);
  }
  const ok = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  return (['br', 'gzip'] as const).filter(ok);
}

/** The raw (still percent-encoded) path under the mirror, as send expects it. */
function mirrorPath(req: FastifyRequest): string {
  const url = req.url.split('?', 1)[0] ?? '';
  return url.slice(PREFIX.length) || '/';
}

const notInstalled = () =>
  `The 5eTools mirror is not installed. Install it with: ${FIVETOOLS_INSTALL_COMMAND}`;

/**
 * Serves the installed copy with @fastify/send (the engine of @fastify/static): content types, ETag
 * and Last-Modified with 304s, Range requests, and path traversal refused. Compression is the copy's
 * own: the installer writes .br and .gz beside each text file, and the one the browser accepts is sent
 * with Content-Encoding (the same as @fastify/static's preCompressed option).
 */
async function serveMirror(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const root = deps.config.fivetoolsDir;
  const requested = mirrorPath(req);
  const options: SendOptions = { root, dotfiles: 'ignore', index: ['index.html'], cacheControl: false, etag: true, lastModified: true };
  reply.header('content-security-policy', MIRROR_CSP);
  reply.header('cache-control', CACHE_CONTROL);

  const target = requested.endsWith('/') ? `${requested}index.html` : requested;
  const realRoot = await fs.promises.realpath(root).catch(() => null);
  const where = realRoot === null ? 'missing' : await placeInMirror(realRoot, target);
  if (where === 'outside') {
    return reply.code(404).header('cache-control', 'no-store').type('application/json').send({ message: `Nothing at ${PREFIX}${requested}` });
  }
  const compressible = isCompressible(decodeSafely(target));
  if (compressible) reply.header('vary', 'Accept-Encoding');
  if (compressible && !req.headers.range && realRoot !== null) {
    for (const encoding of acceptedEncodings(req.headers['accept-encoding'])) {
      if ((await placeInMirror(realRoot, target + COMPRESSED_SUFFIX[encoding])) !== 'inside') continue;
      const result = await send(req.raw, target + COMPRESSED_SUFFIX[encoding], options);
      if (result.type !== 'file') {
        result.stream.destroy();
        continue;
      }
      reply.code(result.statusCode).headers(result.headers);
      if (result.statusCode !== 304) {
        reply.header('content-type', contentTypeOf(target));
        reply.header('content-encoding', encoding);
      }
      return reply.send(result.stream);
    }
  }

  const result = await send(req.raw, requested, options);
  if (result.type === 'file') {
    reply.code(result.statusCode).headers(result.headers);
    return reply.send(result.stream);
  }
  result.stream.destroy();
  if (result.type === 'directory') return reply.redirect(`${PREFIX}${result.metadata.requestPath}/`);
  const status = result.statusCode;
  if (result.headers['Content-Range']) reply.header('content-range', result.headers['Content-Range']);
  const message =
    status === 404
      ? fs.existsSync(root)
        ? `Nothing at ${PREFIX}${requested}`
        : notInstalled()
      : status === 403
        ? 'That path is outside the mirror'
        : status === 416
          ? 'Range Not Satisfiable'
          : 'Bad request';
  return reply.code(status >= 500 ? 500 : status).header('cache-control', 'no-store').type('application/json').send({ message });
}

/**
 * Where a requested path really leads: 'inside' for a regular file or a folder whose real path (every
 * symbolic link followed) stays inside the mirror's real folder; 'outside' for anything else that
 * exists (a link out of the folder, a FIFO, a device); 'missing' when nothing is there (send answers
 * 404). A link placed inside FIVETOOLS_DIR therefore never serves /etc/passwd.
 */
async function placeInMirror(realRoot: string, rawPath: string): Promise<'inside' | 'outside' | 'missing'> {
  const decoded = decodeSafely(rawPath);
  if (decoded.includes('\0')) return 'missing';
  let real: string;
  try {
    real = await fs.promises.realpath(path.join(realRoot, decoded));
  } catch (error) {
    // A dangling link (its target is gone) is refused like any other link out of the mirror.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return (await isLink(path.join(realRoot, decoded))) ? 'outside' : 'missing';
    return code === 'ENOTDIR' ? 'missing' : 'outside';
  }
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) return 'outside';
  const stat = await fs.promises.stat(real).catch(() => null);
  if (!stat) return 'missing';
  return stat.isFile() || stat.isDirectory() ? 'inside' : 'outside';
}

async function isLink(file: string): Promise<boolean> {
  return (await fs.promises.lstat(file).catch(() => null))?.isSymbolicLink() ?? false;
}

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function contentTypeOf(file: string): string {
  const type = send.mime.getType(decodeSafely(file)) ?? 'application/octet-stream';
  return send.isUtf8MimeType(type) ? `${type}; charset=utf-8` : type;
}

export function fivetoolsHttp(routes: HttpRegistrar, deps: AppDeps): void {
  routes.route('GET /api/5etools/*', (req, reply) => serveMirror(deps, req, reply));
}
