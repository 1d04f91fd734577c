import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import send from '@fastify/send';
import {
  assertMediaKey,
  isMediaKey,
  contentDisposition,
  MediaTooLargeError,
  type IncomingFile,
  type MediaStorage,
  type SendOptions,
  type StoredFile,
} from './storage.ts';

const HEAD_BYTES = 4100;
const TEMP = '.tmp';
const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** How long a temporary file or folder must have been left untouched before a sweep takes it. */
export const STALE_TEMP_MS = 5 * 60 * 1000;

/**
 * Media on the local disk under `root` (DATA_DIR/media by default, outside any static root).
 * Temporary files live in `root/.tmp`, on the same file system, so committing is one rename; ones
 * left by a crash are swept when the store opens (those untouched for STALE_TEMP_MS: another
 * instance sharing the folder may be writing the others).
 */
export function createLocalStorage(root: string, opts: { sweepOlderThanMs?: number } = {}): MediaStorage {
  const base = path.resolve(root);
  const tempRoot = path.join(base, TEMP);
  fs.mkdirSync(tempRoot, { recursive: true });
  void sweepTemp(tempRoot, opts.sweepOlderThanMs ?? STALE_TEMP_MS).catch(() => {});

  const fileOf = (key: string) => path.join(base, ...assertMediaKey(key).split('/'));
  const tempName = () => path.join(tempRoot, randomBytes(12).toString('hex'));

  async function commitTo(temp: string, key: string): Promise<StoredFile> {
    const target = fileOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(temp, target);
    const { size } = await fsp.stat(target);
    return { key, size };
  }

  return {
    async receive(source, { maxBytes, signal }) {
      const temp = tempName();
      let size = 0;
      const chunks: Buffer[] = [];
      let headLength = 0;
      const hash = createHash('sha256');
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (size > maxBytes) return done(new MediaTooLargeError(maxBytes));
          hash.update(chunk);
          if (headLength < HEAD_BYTES) {
            const part = chunk.subarray(0, HEAD_BYTES - headLength);
            chunks.push(Buffer.from(part));
            headLength += part.length;
          }
          done(null, chunk);
        },
      });
      try {
        await pipeline(source as Readable, counter, fs.createWriteStream(temp, { flags: 'wx' }), signal ? { signal } : {});
      } catch (error) {
        await fsp.rm(temp, { force: true });
        throw error;
      }
      let pending = true;
      return {
        size,
        head: Buffer.concat(chunks),
        sha256: hash.digest('hex'),
        path: temp,
        async commit(key) {
          const stored = await commitTo(temp, key);
          pending = false;
          return stored;
        },
        async discard() {
          if (pending) await fsp.rm(temp, { force: true });
          pending = false;
        },
      } satisfies IncomingFile;
    },

    async put(key, data) {
      const temp = tempName();
      try {
        await fsp.writeFile(temp, data, { flag: 'wx' });
        return await commitTo(temp, key);
      } catch (error) {
        await fsp.rm(temp, { force: true });
        throw error;
      }
    },

    async stat(key) {
      try {
        const stat = await fsp.stat(fileOf(key));
        return stat.isFile() ? { size: stat.size, modified: stat.mtime } : null;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },

    read(key, range) {
      return fs.createReadStream(fileOf(key), range ? { start: range.start, end: range.end } : {});
    },

    readBuffer: (key) => fsp.readFile(fileOf(key)),

    localPath: fileOf,

    async list(folder) {
      const dir = fileOf(folder);
      const names = await fsp.readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      const files = [];
      for (const entry of names) {
        if (!entry.isFile() || !isMediaKey(`${folder}/${entry.name}`)) continue;
        const stat = await fsp.stat(path.join(dir, entry.name)).catch(() => null);
        if (stat) files.push({ key: `${folder}/${entry.name}`, size: stat.size, modified: stat.mtime });
      }
      return files;
    },
    sweepTemporary: (olderThanMs) => sweepTemp(tempRoot, olderThanMs),
    async delete(key) {
      await fsp.rm(fileOf(key), { force: true });
    },

    async tempDir(prefix) {
      const dir = await fsp.mkdtemp(path.join(tempRoot, `${prefix.replace(/[^A-Za-z0-9_-]/g, '')}-`));
      return { path: dir, remove: () => fsp.rm(dir, { recursive: true, force: true }) };
    },

    async send(req, reply, key, sendOpts: SendOptions = {}) {
      // A key that is not one of ours (traversal included) is simply not here.
      if (!isMediaKey(key)) return reply.code(404).send({ message: 'No such file' });
      const relative = key;
      const result = await send(req.raw, `/${relative}`, {
        root: base,
        dotfiles: 'deny',
        index: false,
        etag: true,
        lastModified: true,
        acceptRanges: true,
        cacheControl: true,
        immutable: sendOpts.immutable === true,
        maxAge: sendOpts.immutable ? YEAR_SECONDS * 1000 : 0,
      });
      if (result.type !== 'file') {
        const status = result.type === 'error' ? result.statusCode : 404;
        return reply.code(status === 404 || status === 403 ? 404 : status).send({ message: 'No such file' });
      }
      reply.code(result.statusCode).headers(result.headers);
      if (sendOpts.noStore) reply.header('cache-control', 'private, no-store');
      else if (!sendOpts.immutable) reply.header('cache-control', 'private, no-cache');
      else reply.header('cache-control', 'private, max-age=31536000, immutable');
      if (sendOpts.contentType && result.statusCode !== 416) reply.header('content-type', sendOpts.contentType);
      reply.header('x-content-type-options', 'nosniff');
      if (sendOpts.csp) reply.header('content-security-policy', sendOpts.csp);
      if (sendOpts.downloadName) reply.header('content-disposition', contentDisposition(sendOpts.downloadName));
      const { rewrite } = sendOpts;
      if (rewrite && (result.statusCode === 200 || result.statusCode === 206)) {
        const etag = reply.getHeader('etag');
        if (typeof etag === 'string') reply.header('etag', etag.replace(/"$/, `-${rewrite.tag}"`));
        const start = result.statusCode === 206 ? Number(/^bytes (\d+)-/.exec(String(reply.getHeader('content-range') ?? ''))?.[1] ?? 0) : 0;
        return reply.send(rewrite.transform(result.stream, start));
      }
      return reply.send(result.stream);
    },
  };
}

/** The newest modification time in a file or folder tree (a tool writing deep inside keeps it fresh). */
async function newestChange(file: string): Promise<number> {
  const stat = await fsp.stat(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of await fsp.readdir(file)) newest = Math.max(newest, await newestChange(path.join(file, name)).catch(() => 0));
  return newest;
}

async function sweepTemp(dir: string, olderThanMs: number): Promise<number> {
  const cutoff = Date.now() - olderThanMs;
  let removed = 0;
  for (const name of await fsp.readdir(dir).catch(() => [])) {
    const file = path.join(dir, name);
    try {
      if ((await newestChange(file)) < cutoff) {
        await fsp.rm(file, { recursive: true, force: true });
        removed++;
      }
    } catch {
      // gone already
    }
  }
  return removed;
}
