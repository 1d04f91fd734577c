import fsp from 'node:fs/promises';
import fs from 'node:fs';
import path from 'node:path';
import send from '@fastify/send';
import {
  assertMediaKey,
  isMediaKey,
  contentDisposition,
  type IncomingFile,
  type MediaStorage,
  type SendOptions,
  type StoredFile,
} from './storage.ts';
import { createTempArea, STALE_TEMP_MS, type ReceivedFile } from './temp-area.ts';

const TEMP = '.tmp';
const YEAR_SECONDS = 365 * 24 * 60 * 60;

export { STALE_TEMP_MS };

/**
 * Media on the local disk under `root` (DATA_DIR/media by default, outside any static root).
 * Temporary files live in `root/.tmp`, on the same file system, so committing is one rename; ones
 * left by a crash are swept when the store opens (those untouched for STALE_TEMP_MS: another
 * instance sharing the folder may be writing the others).
 */
export function createLocalStorage(root: string, opts: { sweepOlderThanMs?: number } = {}): MediaStorage {
  const base = path.resolve(root);
  const temp = createTempArea(path.join(base, TEMP), opts.sweepOlderThanMs ?? STALE_TEMP_MS);

  const fileOf = (key: string) => path.join(base, ...assertMediaKey(key).split('/'));

  async function commitTo(from: string, key: string): Promise<StoredFile> {
    const target = fileOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(from, target);
    const { size } = await fsp.stat(target);
    return { key, size };
  }

  function incoming(received: ReceivedFile): IncomingFile {
    let pending = true;
    return {
      size: received.size,
      head: received.head,
      sha256: received.sha256,
      path: received.path,
      async commit(key) {
        const stored = await commitTo(received.path, key);
        pending = false;
        return stored;
      },
      async discard() {
        if (pending) await fsp.rm(received.path, { force: true });
        pending = false;
      },
    } satisfies IncomingFile;
  }

  return {
    description: `the local folder ${base}`,
    localFolder: base,

    async health() {
      try {
        await fsp.access(temp.root, fs.constants.W_OK);
        return { ok: true };
      } catch (error) {
        return { ok: false, reason: (error as Error).message };
      }
    },

    async receive(source, { maxBytes, signal }) {
      return incoming(await temp.receive(source, { maxBytes, ...(signal ? { signal } : {}) }));
    },

    async adopt(file, opts) {
      return incoming(await temp.adopt(file, opts));
    },

    resumableFolder: () => temp.resumableFolder(),

    async put(key, data) {
      const file = temp.newPath();
      try {
        await fsp.writeFile(file, data, { flag: 'wx' });
        return await commitTo(file, key);
      } catch (error) {
        await fsp.rm(file, { force: true });
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

    async withLocalFile(key, use) {
      const file = fileOf(key);
      await fsp.stat(file); // a missing file is ENOENT here, as in every store
      return use(file);
    },

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
    async *walk() {
      async function* under(folder: string): AsyncGenerator<{ key: string; size: number; modified: Date }> {
        const dir = folder ? fileOf(folder) : base;
        const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
          const key = folder ? `${folder}/${entry.name}` : entry.name;
          if (!isMediaKey(key)) continue; // .tmp and anything not ours
          if (entry.isDirectory()) yield* under(key);
          else if (entry.isFile()) {
            const stat = await fsp.stat(fileOf(key)).catch(() => null);
            if (stat) yield { key, size: stat.size, modified: stat.mtime };
          }
        }
      }
      yield* under('');
    },
    sweepTemporary: (olderThanMs) => temp.sweep(olderThanMs),
    async delete(key) {
      await fsp.rm(fileOf(key), { force: true });
    },

    tempDir: (prefix) => temp.tempDir(prefix),

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
        if (status === 416) {
          const size = (await fsp.stat(fileOf(key)).catch(() => null))?.size ?? 0;
          return reply.code(416).header('content-range', `bytes */${size}`).send({ message: 'Range not satisfiable' });
        }
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
