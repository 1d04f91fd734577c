import type { Readable } from 'node:stream';
import type { Config } from '../../config.ts';
import { createDb, DatabaseInUseError, dbTargetFromConfig } from '../../db/database.ts';
import { createDeps } from '../../deps.ts';
import {
  ControlUnavailableError,
  ImportSourceError,
  requestPictureImportFile,
  requestPictureImportStart,
  type PictureImportMeta,
  type PictureImportOutcome,
  type PictureImportStart,
} from '../../local-commands/control.ts';
import { useRecordedStore } from '../../media/index.ts';
import { migrateToLatest } from '../../migrations.ts';
import { ImportError, pictureImporter } from './pictures.import.ts';

/**
 * How `npm run pictures -- import` (scripts/src/pictures) reaches the upload pipeline: the running
 * server's, over DATA_DIR/control.sock, while it holds the embedded database (PGlite opens in one
 * process only); otherwise the same pipeline in this process, on the database the server uses (on
 * PostgreSQL while the server runs too: its worker makes the previews from the shared queue).
 */
export type ImportTransport = {
  /** Who does the work, for the command's first line. */
  by: string;
  start(as: string | null): Promise<PictureImportStart>;
  /** One file through the pipeline. A broken source (a zip entry's bad CRC) ends as 'unreadable'. */
  file(memberId: number, meta: PictureImportMeta, bytes: Readable): Promise<PictureImportOutcome>;
  close(): Promise<void>;
};

const noControl = `The running server holds the embedded database but does not answer on its control socket
(an older version of the site?). Stop the server (Ctrl+C in its terminal), run this command again, then start it.`;

export async function openImportTransport(config: Config): Promise<ImportTransport> {
  let handle;
  try {
    handle = await createDb(dbTargetFromConfig(config));
  } catch (error) {
    if (!(error instanceof DatabaseInUseError) || config.databaseUrl) throw error;
    const unavailable = (failure: unknown) => {
      throw failure instanceof ControlUnavailableError ? new ImportError(`${failure.message}.\n${noControl}`) : failure;
    };
    return {
      by: 'the running server',
      start: (as) => requestPictureImportStart(config.dataDir, as).catch(unavailable),
      file: (memberId, meta, bytes) =>
        requestPictureImportFile(config.dataDir, memberId, meta, bytes).catch((failure: unknown) => {
          if (failure instanceof ImportSourceError) return { result: 'skipped', reason: 'unreadable', detail: failure.message } as const;
          return unavailable(failure);
        }),
      close: async () => {},
    };
  }
  const db = handle.db;
  await migrateToLatest(db);
  const deps = createDeps(config, db);
  // The media are where a move put them, whatever MEDIA_STORE says.
  await useRecordedStore(db, deps.media);
  const importer = pictureImporter(deps);
  return {
    by: config.databaseUrl ? 'this command, on PostgreSQL' : 'this command (no server is running; it makes the previews when it starts)',
    start: (as) => importer.start(as),
    file: (memberId, meta, bytes) => importer.file(memberId, meta, bytes),
    close: () => handle.close(),
  };
}
