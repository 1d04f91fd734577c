import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { MediaStorage } from './storage.ts';

export class MediaMoveError extends Error {}

export type MoveResult = {
  /** Files copied and checked by this run. */
  copied: number;
  /** Files a run before this one had copied and checked already (the journal). */
  already: number;
  bytes: number;
};

/**
 * Copies every stored file of `from` into `to` under the same key, checking each copy: the bytes
 * read back from `to` must have the size and SHA-256 of the bytes read from `from`. A checked copy is
 * written to the journal (one line: key, size, SHA-256), so a run that is stopped (`signal`, Ctrl+C,
 * a crash) goes on where it stopped the next time: a file half copied was never committed under its
 * key (the stores' `receive` keeps it apart until `commit`), and is copied again. Only reads `from`:
 * the site keeps serving from it meanwhile, and files uploaded during the move are taken by the
 * next run.
 */
export async function moveMedia(
  from: MediaStorage,
  to: MediaStorage,
  opts: { journal: string; signal?: AbortSignal; onFile?: (key: string, done: MoveResult) => void },
): Promise<MoveResult> {
  const journal = await readJournal(opts.journal);
  const result: MoveResult = { copied: 0, already: 0, bytes: 0 };
  for await (const file of from.walk()) {
    opts.signal?.throwIfAborted();
    const known = journal.get(file.key);
    if (known && known.size === file.size) {
      result.already++;
      continue;
    }
    const incoming = await to.receive(from.read(file.key), { maxBytes: file.size, ...(opts.signal ? { signal: opts.signal } : {}) });
    if (incoming.size !== file.size) {
      await incoming.discard();
      throw new MediaMoveError(`${file.key}: read ${incoming.size} bytes of ${file.size}; nothing was copied for it`);
    }
    await incoming.commit(file.key);
    const copy = await digest(to, file.key);
    if (copy.size !== file.size || copy.sha256 !== incoming.sha256) {
      await to.delete(file.key);
      throw new MediaMoveError(`${file.key}: the copy does not match (${copy.size} bytes, SHA-256 ${copy.sha256}; expected ${file.size} bytes, ${incoming.sha256}); it was removed`);
    }
    await fsp.appendFile(opts.journal, `${file.key}\t${file.size}\t${copy.sha256}\n`);
    result.copied++;
    result.bytes += file.size;
    opts.onFile?.(file.key, result);
  }
  return result;
}

async function digest(store: MediaStorage, key: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of store.read(key)) {
    size += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { size, sha256: hash.digest('hex') };
}

async function readJournal(file: string): Promise<Map<string, { size: number; sha256: string }>> {
  const done = new Map<string, { size: number; sha256: string }>();
  if (!fs.existsSync(file)) return done;
  for (const line of (await fsp.readFile(file, 'utf8')).split('\n')) {
    const [key, size, sha256] = line.split('\t');
    // A line cut short by a crash is not a checked copy: that file is copied again.
    if (key && size && sha256?.length === 64) done.set(key, { size: Number(size), sha256 });
  }
  return done;
}
