import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { ImportTransport } from '@site/server/areas/pictures/pictures.import.cli';
import type { PictureImportMeta, PictureImportOutcome } from '@site/server/local-commands/control';
import { isJson, SidecarIndex } from './takeout.ts';
import { openSource, readSmall, type Source, type SourceEntry } from './sources.ts';

/**
 * `npm run pictures -- import PATH...`: two passes over the sources. The first reads every part's
 * listing and its JSON files (sidecars and album titles: a photo's sidecar is often in another
 * part); the second streams each photo or video, with what its sidecar and folder say, into the
 * upload pipeline (`transport`). A journal in DATA_DIR records each file's outcome as it comes, so a
 * run stopped at any moment (Ctrl+C, a crash, SIGKILL) goes on where it was; the pipeline's dedupe
 * by content makes a file sent twice one picture anyway. The journal goes once a run has finished.
 */

export type SkipReason = 'trashed' | 'not a picture or video' | 'too large' | 'unreadable';
export const SKIP_REASONS: readonly SkipReason[] = ['trashed', 'not a picture or video', 'too large', 'unreadable'];

export type ImportOptions = {
  paths: string[];
  as: string | null;
  albumsFromFolders: boolean;
  /** The report of skipped files. */
  report: string;
  /** Where the journal is kept (DATA_DIR). */
  dataDir: string;
  print: (line: string) => void;
  /** A terminal: one status line kept up to date; otherwise a line per PROGRESS_EVERY files. */
  tty: { write(text: string): void } | null;
  signal?: AbortSignal;
};

export type ImportSummary = {
  member: string;
  files: number;
  imported: number;
  already: number;
  /** Files of this import that are the same picture as another of its files (a year folder's and an album's copy). */
  copies: number;
  skipped: Record<SkipReason, number>;
  albumsMade: number;
  stopped: boolean;
};

export const PROGRESS_EVERY = 1000;
/**
 * Files sent at once. Two keep both cores busy (this command reads and inflates the next file while
 * the server hashes, checks and stores the one before): with the zip reader's larger chunks,
 * bench:import went from 0.51 to 0.91-0.96 of the upload rate (docs/benchmarks.md).
 * The pipeline is safe for it: the same bytes twice wait on one lock (one picture), an album is made once.
 */
export const IMPORT_CONCURRENCY = 2;

type JournalLine = { k: string; r: 'imported' | 'already there' | 'skipped'; why?: SkipReason; id?: number };

const mb = (bytes: number) => (bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`);
function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** The sidecar's photoTakenTime (seconds, UTC) as a capture date. */
const dayOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

export async function runImport(transport: ImportTransport, opts: ImportOptions): Promise<ImportSummary> {
  const sources: Source[] = [];
  for (const given of opts.paths) sources.push(await openSource(given));
  const { member, maxBytes } = await transport.start(opts.as);
  opts.print(`Importing for ${member.name}, through ${transport.by}. Reading the listings and sidecars of ${sources.length} ${sources.length === 1 ? 'source' : 'sources'}...`);

  // Pass 1: every part's JSON files, and how much there is.
  const index = new SidecarIndex();
  let totalFiles = 0;
  let totalBytes = 0;
  for (const source of sources) {
    for await (const entry of source.entries()) {
      if (isJson(entry.path)) {
        const text = await readSmall(entry).catch(() => null);
        if (text !== null) index.add(entry.path, text);
      } else {
        totalFiles++;
        totalBytes += entry.size;
      }
    }
  }
  opts.print(`${totalFiles} files (${mb(totalBytes)}), ${index.size} sidecars.`);

  // The journal of an earlier run of the same import that did not finish.
  const journalId = createHash('sha256')
    .update(JSON.stringify([sources.map((s) => s.label).sort(), member.id, opts.albumsFromFolders]))
    .digest('hex')
    .slice(0, 16);
  const journalDir = path.join(opts.dataDir, 'pictures-import');
  await fsp.mkdir(journalDir, { recursive: true });
  const journalFile = path.join(journalDir, `${journalId}.journal`);
  const earlier = new Map<string, JournalLine>();
  const previous = await fsp.readFile(journalFile, 'utf8').catch(() => '');
  for (const line of previous.split('\n')) {
    try {
      const parsed = JSON.parse(line) as JournalLine;
      if (typeof parsed.k === 'string') earlier.set(parsed.k, parsed);
    } catch {
      // The line a kill cut short: that file is sent again.
    }
  }
  if (earlier.size > 0) opts.print(`Going on with an earlier run that stopped: ${earlier.size} files were done.`);
  const journal = fs.openSync(journalFile, 'a');
  const report = fs.openSync(opts.report, 'w');
  fs.writeSync(report, `# npm run pictures -- import ${opts.paths.join(' ')}: the files not imported, and why (reason<TAB>file<TAB>detail)\n`);

  const summary: ImportSummary = { member: member.name, files: 0, imported: 0, already: 0, copies: 0, skipped: { trashed: 0, 'not a picture or video': 0, 'too large': 0, unreadable: 0 }, albumsMade: 0, stopped: false };
  const importedNow = new Set<number>();
  const alreadyIds: number[] = [];
  let doneBytes = 0;
  const started = Date.now();
  let lastStatus = 0;
  const status = (final = false) => {
    const seconds = (Date.now() - started) / 1000;
    const rate = doneBytes / Math.max(seconds, 0.001);
    const left = rate > 0 ? (totalBytes - doneBytes) / rate : Infinity;
    return `${summary.files}/${totalFiles} files, ${mb(doneBytes)} of ${mb(totalBytes)}, ${mb(rate)}/s, ${(summary.files / Math.max(seconds, 0.001)).toFixed(1)} files/s${final ? '' : `, about ${duration(left)} left`}`;
  };
  const progress = () => {
    if (opts.tty) {
      if (Date.now() - lastStatus < 250 && summary.files < totalFiles) return;
      lastStatus = Date.now();
      opts.tty.write(`\r\x1b[2K${status()}`);
    } else if (summary.files % PROGRESS_EVERY === 0) opts.print(status());
  };
  const skip = (entry: SourceEntry, why: SkipReason, detail: string) => {
    summary.skipped[why]++;
    fs.writeSync(report, `${why}\t${entry.path}\t${detail.replace(/[\t\n\r]+/g, ' ')}\n`);
  };
  const record = (line: JournalLine) => fs.writeSync(journal, `${JSON.stringify(line)}\n`);

  const one = async (entry: SourceEntry) => {
    const before = earlier.get(entry.key);
    if (before) {
      if (before.r === 'skipped') skip(entry, before.why ?? 'unreadable', 'as in the earlier run');
      else summary.already++;
      return;
    }
    const sidecar = index.sidecarOf(entry.path);
    if (sidecar?.trashed) {
      skip(entry, 'trashed', 'in the trash in Google Photos');
      record({ k: entry.key, r: 'skipped', why: 'trashed' });
      return;
    }
    if (entry.size > maxBytes) {
      skip(entry, 'too large', `${mb(entry.size)}, over the upload limit of ${mb(maxBytes)}`);
      record({ k: entry.key, r: 'skipped', why: 'too large' });
      return;
    }
    const meta: PictureImportMeta = {
      name: entry.path,
      date: sidecar?.taken ? dayOf(sidecar.taken) : null,
      position: sidecar && sidecar.lat !== null && sidecar.lon !== null ? { lat: sidecar.lat, lon: sidecar.lon } : null,
      // The server makes it a caption (one line, 500 characters); what is sent stays well within a header.
      caption: sidecar ? sidecar.description.slice(0, 1000) : null,
      favorite: sidecar?.favorited ?? false,
      album: index.albumOf(entry.path, opts.albumsFromFolders)?.slice(0, 300) ?? null,
    };
    let bytes;
    try {
      bytes = await entry.open();
    } catch (error) {
      // A zip entry that cannot be opened (an unsupported compression, a broken header), a file gone.
      bytes = null;
      const detail = error instanceof Error ? error.message : String(error);
      skip(entry, 'unreadable', detail);
      record({ k: entry.key, r: 'skipped', why: 'unreadable' });
    }
    if (!bytes) return;
    const outcome: PictureImportOutcome = await transport.file(member.id, meta, bytes);
    if (outcome.result === 'skipped') {
      skip(entry, outcome.reason, outcome.detail);
      record({ k: entry.key, r: 'skipped', why: outcome.reason });
      return;
    }
    if (outcome.albumMade) summary.albumsMade++;
    if (outcome.result === 'imported') {
      summary.imported++;
      importedNow.add(outcome.pictureId);
    } else alreadyIds.push(outcome.pictureId);
    record({ k: entry.key, r: outcome.result, id: outcome.pictureId });
  };

  // Files in flight at once: the next file is read (and inflated) while the server stores the one before.
  const inFlight = new Set<Promise<void>>();
  // The first failure of a file's sending (the server gone): no more files are sent, and it is thrown once those in flight end.
  const failures: unknown[] = [];
  const send = (entry: SourceEntry) => {
    const done: Promise<void> = one(entry).then(
      () => {
        summary.files++;
        doneBytes += entry.size;
        progress();
      },
      (error: unknown) => {
        failures.push(error);
      },
    );
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };
  try {
    outer: for (const source of sources) {
      for await (const entry of source.entries()) {
        if (isJson(entry.path)) continue;
        while (inFlight.size >= IMPORT_CONCURRENCY && failures.length === 0) await Promise.race(inFlight);
        if (failures.length > 0) break outer;
        if (opts.signal?.aborted) {
          summary.stopped = true;
          break outer;
        }
        send(entry);
      }
    }
  } finally {
    await Promise.all(inFlight);
    fs.closeSync(journal);
    fs.closeSync(report);
    if (opts.tty) opts.tty.write(`\r\x1b[2K${status(true)}\n`);
  }
  if (failures.length > 0) throw failures[0];
  // A second copy of a picture this run imported (a year folder's and an album's) is one picture, not "already there".
  for (const id of alreadyIds) {
    if (importedNow.has(id)) summary.copies++;
    else summary.already++;
  }
  if (!summary.stopped) await fsp.rm(journalFile, { force: true });
  return summary;
}

export function summaryLines(s: ImportSummary, report: string): string[] {
  const skipped = SKIP_REASONS.reduce((n, why) => n + s.skipped[why], 0);
  const lines = [
    `${s.stopped ? 'Stopped' : 'Done'}: ${s.imported} imported for ${s.member}, ${s.already} already there, ${skipped} skipped, ${s.albumsMade} ${s.albumsMade === 1 ? 'album' : 'albums'} made.`,
  ];
  if (s.copies > 0) lines.push(`${s.copies} more ${s.copies === 1 ? 'file was a copy' : 'files were copies'} of pictures of this import (a year folder's and an album's): one picture each, in its albums.`);
  lines.push(`Skipped: ${SKIP_REASONS.map((why) => `${why} ${s.skipped[why]}`).join(', ')}${skipped > 0 ? ` (each listed in ${report})` : ''}.`);
  if (s.stopped) lines.push('Run the same command again to go on where it stopped.');
  return lines;
}
