import path from 'node:path';
import { loadConfig } from '../config.ts';
import { createLocalStorage } from './local-storage.ts';
import { MediaMoveError, moveMedia } from './move.ts';
import { MediaUnavailableError } from './storage.ts';
import { createS3Storage } from './s3-storage.ts';

export const usage = `Usage:
  npm run media -- move --to s3      copy every file under MEDIA_DIR into the bucket of the S3_* settings
  npm run media -- move --to local   copy every file of that bucket into MEDIA_DIR

Each copy is read back and checked (size and SHA-256) before it counts. The copies made are written
to DATA_DIR/media-move-to-<store>.journal: stopped (Ctrl+C) or failed, the same command goes on where
it stopped. The site keeps serving from where its files are now (MEDIA_STORE) while the move runs.
Then switch: set MEDIA_STORE to the new store, restart the server, and run the same command once more
to copy what was uploaded until the restart. The old copies are left as they were. See docs/storage.md.`;

/** `npm run media -- move --to s3|local` (scripts/src/media/cli.ts runs it): its exit code. */
export async function mediaCommand(argv: string[], env: NodeJS.ProcessEnv = process.env, print: (line: string) => void = console.log): Promise<number> {
  const [command, flag, to, ...more] = argv;
  if (command !== 'move' || flag !== '--to' || (to !== 's3' && to !== 'local') || more.length > 0) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig(env);
  // The bucket's settings whatever MEDIA_STORE says now: before the switch it still names the disk.
  const bucket = loadConfig({ ...env, MEDIA_STORE: 's3' }).mediaStore;
  if (bucket.kind !== 's3') throw new Error('unreachable');
  const disk = createLocalStorage(config.mediaDir);
  const s3 = createS3Storage({ ...bucket, tempRoot: path.join(config.mediaDir, '.tmp') });
  const [from, target] = to === 's3' ? [disk, s3] : [s3, disk];
  const journal = path.join(config.dataDir, `media-move-to-${to}.journal`);
  const stop = new AbortController();
  const onSignal = () => stop.abort(new Error('stopped'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  print(`Copying the files of ${from.description} into ${target.description}...`);
  let last = Date.now();
  try {
    const result = await moveMedia(from, target, {
      journal,
      signal: stop.signal,
      onFile: (key, done) => {
        if (Date.now() - last < 2000) return;
        last = Date.now();
        print(`  ${done.copied} copied and checked (${mb(done.bytes)}), now at ${key}`);
      },
    });
    print(
      `Done: ${result.copied} files copied and checked (${mb(result.bytes)})${result.already ? `, ${result.already} copied by an earlier run` : ''}. ` +
        (config.mediaStore.kind === to
          ? 'MEDIA_STORE already names this store: nothing else to do.'
          : `To switch, set MEDIA_STORE=${to}, restart the server, then run this command once more.`),
    );
    return 0;
  } catch (error) {
    if (error instanceof MediaUnavailableError) throw new MediaMoveError(`${error.message} (${error.reason}; the copies made so far are kept)`);
    if (!stop.signal.aborted) throw error;
    print(`Stopped. The files copied so far are checked and kept; run the same command again to go on.`);
    return 130;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
