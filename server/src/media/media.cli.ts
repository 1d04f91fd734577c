import fsp from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { createDb, DatabaseInUseError, dbTargetFromConfig } from '../db/database.ts';
import { ControlUnavailableError, requestMediaStore } from '../local-commands/control.ts';
import { migrateToLatest } from '../migrations.ts';
import { createMediaStorage } from './index.ts';
import { recordStore, recordedStore } from './media.state.ts';
import { MediaMoveError, moveMedia, type MoveResult } from './move.ts';
import { MediaUnavailableError } from './storage.ts';
import type { StoreName, StoreState } from './switching.ts';

export const usage = `Usage:
  npm run media -- move --to s3      move every file of the site's media into the bucket of the S3_* settings
  npm run media -- move --to local   move every file of that bucket into MEDIA_DIR

The site keeps serving while the files are copied. Each copy is read back and checked (size and
SHA-256) before it counts, and written to DATA_DIR/media-move-to-<store>.journal: stopped (Ctrl+C)
or failed, the same command goes on where it stopped. Once every file is copied, the site switches
over by itself (every running server, no restart): new files go to the new store, and the files
that came in meanwhile are copied last (read from the old store until then). The database records
the switch, so MEDIA_STORE no longer decides. The old copies are left as they were. See docs/storage.md.`;

/** How long servers on PostgreSQL are given to hear the switch (NOTIFY: milliseconds) before the last pass. */
const SWITCH_GRACE_MS = 5000;

/** Where the site's media are, read and recorded through the database, or through the running server that holds the embedded one. */
type SiteState = { read(): Promise<StoreState | null>; record(state: StoreState): Promise<void>; close(): Promise<void>; servers: 'listening' | 'told' };

async function openSiteState(config: Config): Promise<SiteState> {
  let handle;
  try {
    handle = await createDb(dbTargetFromConfig(config));
  } catch (error) {
    if (!(error instanceof DatabaseInUseError) || config.databaseUrl) throw error;
    // The running server holds the embedded database: it records the switch and switches itself.
    const ask = (state: StoreState | null) =>
      requestMediaStore(config.dataDir, state).catch((failure: unknown) => {
        throw failure instanceof ControlUnavailableError ? new MediaMoveError(`${error.message}, and ${failure.message}: stop the server and run this again`) : failure;
      });
    await ask(null);
    return { read: () => ask(null), record: async (state) => void (await ask(state)), close: async () => {}, servers: 'told' };
  }
  const db = handle.db;
  await migrateToLatest(db);
  // On PostgreSQL every server hears the row change (NOTIFY); a stopped PGlite site reads it when it starts.
  return { read: () => recordedStore(db), record: (state) => recordStore(db, state), close: () => handle.close(), servers: config.databaseUrl ? 'listening' : 'told' };
}

/** `npm run media -- move --to s3|local` (scripts/src/media/cli.ts runs it): its exit code. */
export async function mediaCommand(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  print: (line: string) => void = console.log,
  opts: { switchGraceMs?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const [command, flag, to, ...more] = argv;
  if (command !== 'move' || flag !== '--to' || (to !== 's3' && to !== 'local') || more.length > 0) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig(env);
  if (!config.bucket) throw new ConfigError('Moving media needs the bucket: set S3_BUCKET (and S3_ENDPOINT and the other S3_* settings the server uses)');
  // The server's own two stores, as it opens them.
  const stores = createMediaStorage(config);
  const fromName: StoreName = to === 's3' ? 'local' : 's3';
  const [from, target] = [stores.store(fromName), stores.store(to)];
  const journal = path.join(config.dataDir, `media-move-to-${to}.journal`);
  const stop = new AbortController();
  const onSignal = () => stop.abort(new Error('stopped'));
  opts.signal?.addEventListener('abort', onSignal);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const site = await openSiteState(config);
  let last = Date.now();
  const copyAll = () =>
    moveMedia(from, target, {
      journal,
      signal: stop.signal,
      onFile: (key, done) => {
        if (Date.now() - last < 2000) return;
        last = Date.now();
        print(`  ${done.copied} copied and checked (${mb(done.bytes)}), now at ${key}`);
      },
    });
  try {
    const state = (await site.read()) ?? { active: config.mediaStore.kind, previous: null };
    if (state.active === to && state.previous === null) {
      print(`The site's media are in ${target.description} already: nothing to move.`);
      return 0;
    }
    let first: MoveResult = { copied: 0, already: 0, bytes: 0 };
    if (state.active !== to) {
      print(`Copying the files of ${from.description} into ${target.description}; the site keeps serving meanwhile...`);
      first = await copyAll();
      await site.record({ active: to, previous: fromName });
      print(`Switched: new files go to ${target.description}. Copying the files that came in meanwhile...`);
      // Servers on PostgreSQL hear the switch by NOTIFY: an upload one of them was finishing lands in the old store first.
      if (site.servers === 'listening') await sleep(opts.switchGraceMs ?? SWITCH_GRACE_MS);
    } else {
      print(`Going on with the move into ${target.description}: copying the files that are still only in ${from.description}...`);
    }
    const rest = await copyAll();
    // The last pass finds the first pass's copies in the journal: they are not "earlier runs".
    const total = { copied: first.copied + rest.copied, bytes: first.bytes + rest.bytes, already: rest.already - first.copied };
    await site.record({ active: to, previous: null });
    // The next move this way starts afresh: a journal kept would skip files removed since from the target.
    await fsp.rm(journal, { force: true });
    print(
      `Done: ${total.copied} files copied and checked (${mb(total.bytes)})${total.already ? `, ${total.already} copied by an earlier run` : ''}. ` +
        `The site's media are in ${target.description}; the copies in ${from.description} are left as they were.`,
    );
    return 0;
  } catch (error) {
    if (error instanceof MediaUnavailableError) throw new MediaMoveError(`${error.message} (${error.reason}; the copies made so far are kept)`);
    if (!stop.signal.aborted) throw error;
    print(`Stopped. The files copied so far are checked and kept; run the same command again to go on.`);
    return 130;
  } finally {
    await site.close();
    opts.signal?.removeEventListener('abort', onSignal);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
