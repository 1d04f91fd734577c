import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isMediaKey, type IncomingFile, type MediaStorage, type SendOptions, type StoredFile } from './storage.ts';

export type StoreName = 'local' | 's3';

/**
 * Which store the site's files are in (the `media_store` row, media.state.ts): `active` takes every
 * new file and is read first; `previous` is the store a move (`npm run media -- move`) switched from,
 * read for a file not in `active` yet, until the move's last pass has copied everything and clears it.
 */
export type StoreState = { active: StoreName; previous: StoreName | null };

export class MediaStoreNotConfiguredError extends Error {}

/**
 * The one MediaStorage the server holds (deps.media): the store the state names, switched at run time
 * when a move switches over, so the site keeps serving through a move without a restart. While a move
 * finishes (`previous` set) a file is read from wherever it is, and deleted from both.
 */
export class SwitchingStorage implements MediaStorage {
  #state: StoreState;

  constructor(
    private readonly stores: Partial<Record<StoreName, MediaStorage>>,
    initial: StoreName,
  ) {
    this.#state = { active: initial, previous: null };
    this.storeOf(initial);
  }

  get state(): StoreState {
    return this.#state;
  }

  /** Switches to `state` at once; a store the configuration does not describe (no S3_BUCKET) is refused and nothing changes. */
  use(state: StoreState): void {
    this.storeOf(state.active);
    if (state.previous) this.storeOf(state.previous);
    this.#state = { active: state.active, previous: state.previous === state.active ? null : state.previous };
  }

  /** The configured stores by name, for `npm run media -- move`. */
  store(name: StoreName): MediaStorage {
    return this.storeOf(name);
  }

  private storeOf(name: StoreName): MediaStorage {
    const store = this.stores[name];
    if (!store) {
      throw new MediaStoreNotConfiguredError(
        name === 's3'
          ? "The site's media are in the bucket (npm run media -- move --to s3), but S3_BUCKET is not set: set the S3_* settings the move used"
          : 'No local media store is configured',
      );
    }
    return store;
  }

  private get current(): MediaStorage {
    return this.storeOf(this.#state.active);
  }

  private get fallback(): MediaStorage | null {
    return this.#state.previous ? this.storeOf(this.#state.previous) : null;
  }

  /** The store holding `key`: the active one, or during a move's last pass the previous one when only it has the file. */
  private async holder(key: string): Promise<MediaStorage> {
    const current = this.current;
    const fallback = this.fallback;
    // A key that is not one is the active store's to refuse, as it always is.
    if (!fallback || !isMediaKey(key) || (await current.stat(key))) return current;
    return (await fallback.stat(key)) ? fallback : current;
  }

  get description(): string {
    return this.current.description;
  }

  get localFolder(): string | null {
    return this.#state.previous ? null : this.current.localFolder;
  }

  health() {
    return this.current.health();
  }

  async receive(source: Readable | AsyncIterable<Uint8Array>, opts: { maxBytes: number; signal?: AbortSignal }): Promise<IncomingFile> {
    const origin = this.current;
    return this.followingSwitch(origin, await origin.receive(source, opts));
  }

  /** A file taken in by `origin`: committed there, and also into the new store when a switch came meanwhile. */
  private followingSwitch(origin: MediaStorage, incoming: IncomingFile): IncomingFile {
    return {
      ...incoming,
      commit: async (key: string): Promise<StoredFile> => {
        const stored = await incoming.commit(key);
        // Switched while it streamed in: the new store gets it too (a move's last pass may have passed it).
        const now = this.current;
        if (now !== origin) await copy(origin, now, key, stored.size);
        return stored;
      },
    };
  }

  async adopt(file: string, opts: { maxBytes: number; sha256?: string }): Promise<IncomingFile> {
    const origin = this.current;
    return this.followingSwitch(origin, await origin.adopt(file, opts));
  }

  /** Both stores keep their temporary area in the same folder (MEDIA_DIR/.tmp): a switch leaves uploads' parts where they are. */
  resumableFolder(): string {
    return this.current.resumableFolder();
  }

  put(key: string, data: Uint8Array): Promise<StoredFile> {
    return this.current.put(key, data);
  }

  async stat(key: string) {
    const found = await this.current.stat(key);
    const fallback = this.fallback;
    return found ?? (fallback ? fallback.stat(key) : null);
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    if (!this.fallback) return this.current.read(key, range);
    const holder = this.holder(key);
    return Readable.from(
      (async function* () {
        yield* (await holder).read(key, range);
      })(),
      { objectMode: false },
    );
  }

  async readBuffer(key: string): Promise<Buffer> {
    return (await this.holder(key)).readBuffer(key);
  }

  async withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    return (await this.holder(key)).withLocalFile(key, use);
  }

  async list(folder: string) {
    const fallback = this.fallback;
    const listed = await this.current.list(folder);
    if (!fallback) return listed;
    const keys = new Set(listed.map((f) => f.key));
    return [...listed, ...(await fallback.list(folder)).filter((f) => !keys.has(f.key))];
  }

  async *walk() {
    const current = this.current;
    const fallback = this.fallback;
    const seen = new Set<string>();
    for await (const file of current.walk()) {
      if (fallback) seen.add(file.key);
      yield file;
    }
    if (fallback) for await (const file of fallback.walk()) if (!seen.has(file.key)) yield file;
  }

  async sweepTemporary(olderThanMs: number): Promise<number> {
    const fallback = this.fallback;
    return (await this.current.sweepTemporary(olderThanMs)) + (fallback ? await fallback.sweepTemporary(olderThanMs) : 0);
  }

  async delete(key: string): Promise<void> {
    const fallback = this.fallback;
    await this.current.delete(key);
    await fallback?.delete(key);
  }

  tempDir(prefix: string) {
    return this.current.tempDir(prefix);
  }

  async send(req: FastifyRequest, reply: FastifyReply, key: string, opts?: SendOptions): Promise<FastifyReply> {
    return (await this.holder(key)).send(req, reply, key, opts);
  }
}

/** Copies one stored file from a store into another under the same key, streamed. */
export async function copy(from: MediaStorage, to: MediaStorage, key: string, size: number): Promise<void> {
  const incoming = await to.receive(from.read(key), { maxBytes: size });
  await incoming.commit(key);
}
