import { randomBytes } from 'node:crypto';
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

/**
 * Media on the local disk under `root` (DATA_DIR/media by default, outside any static root).
 * Temporary files live in `root/.tmp`, on the same file system, so committing is one rename; ones
 * left by a crash are swept when the store opens.
 */
export function createLocalStorage(root: string, opts: { sweepOlderThanMs?: number } = {}): MediaStorage {
  const base = path.resolve(root);
  const tempRoot = path.join(base, TEMP);
  fs.mkdirSync(tempRoot, { recursive: true });
  void sweepTemp(tempRoot, opts.sweepOlderThanMs ?? 24 * 60 * 60 * 1000).catch(() => {});

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
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (size > maxBytes) return done(new MediaTooLargeError(maxBytes));
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
      if (!sendOpts.immutable) reply.header('cache-control', 'private, no-cache');
      else reply.header('cache-control', 'private, max-age=31536000, immutable');
      if (sendOpts.contentType && result.statusCode !== 416) reply.header('content-type', sendOpts.contentType);
      reply.header('x-content-type-options', 'nosniff');
      if (sendOpts.csp) reply.header('content-security-policy', sendOpts.csp);
      if (sendOpts.downloadName) reply.header('content-disposition', contentDisposition(sendOpts.downloadName));
      return reply.send(result.stream);
    },
  };
}

async function sweepTemp(dir: string, olderThanMs: number): Promise<void> {
  const cutoff = Date.now() - olderThanMs;
  for (const name of await fsp.readdir(dir).catch(() => [])) {
    const file = path.join(dir, name);
    try {
      const stat = await fsp.stat(file);
      if (stat.mtimeMs < cutoff) await fsp.rm(file, { recursive: true, force: true });
    } catch {
      // gone already
    }
  }
}
