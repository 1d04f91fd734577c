import fsp from 'node:fs/promises';
import { BackupError, digestEntry, MANIFEST, readArchive, readSmallEntry, safeRelative, STOPPED, unreadable, type ArchiveEntry, type ManifestEntry } from './backups.archive.ts';
import { checkSignature, SIGNATURE, type Trust } from './backups.key.ts';

/**
 * What an archive holds (backups.write.ts writes it) and the checks every archive passes before
 * anything is restored from it: `--verify` runs exactly these, so an archive it passes is one
 * restore takes (given empty folders and a database of a version that knows its migrations).
 */
export type LeftOut = { path: string; what: string; restore: string };
export type BackupManifest = {
  format: 2;
  createdAt: string;
  migrations: string[];
  tables: string[];
  /** Where the files came from (data/ and media/ entries go back to the restoring site's folders). */
  folders: { data: string; media: string };
  leftOut: LeftOut[];
  entries: ManifestEntry[];
};
export type LegacyManifest = { format: 1; createdAt: string; migrations: string[]; tables: string[] };

const isManifest = (value: unknown): value is BackupManifest | LegacyManifest =>
  typeof value === 'object' && value !== null && ((value as { format?: unknown }).format === 1 || (value as { format?: unknown }).format === 2);

export function parseManifest(bytes: Buffer, file: string): BackupManifest | LegacyManifest {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BackupError(`${file}: its manifest is not readable JSON`);
  }
  if (!isManifest(value)) throw new BackupError(`${file}: its manifest is of an unknown format`);
  return value;
}

/** Where an entry goes: a table's rows, a file of the data or media folder (format 1: `files/` is the data folder), or nowhere. */
export type Place = { root: 'db' | 'data' | 'media'; rel: string } | null;

/** The longest name of one file or folder on the file systems a site runs on (ext4, btrfs, APFS, NTFS). */
const NAME_MAX = 255;
/** The longest path Linux opens; a restored file's full path must be shorter. */
export const PATH_MAX = 4096;

/**
 * Where an entry would be restored, or a BackupError saying why it cannot be: not a file, an unsafe
 * path (absolute, `..`), a name too long for a file system, or a place this version does not know.
 */
export function placeOf(entry: Pick<ArchiveEntry, 'name' | 'type'>, format: 1 | 2): Place {
  if (entry.name === MANIFEST || entry.type === 'directory') return null;
  if (format === 2 && entry.name === SIGNATURE) return null;
  const shown = entry.name.length > 120 ? `${entry.name.slice(0, 120)}...` : entry.name;
  if (entry.type !== 'file') throw new BackupError(`The archive holds an entry that is not a file (${entry.type}): ${shown}`);
  const name = safeRelative(entry.name);
  const [root = '', ...rest] = name.split('/');
  if (rest.some((part) => Buffer.byteLength(part) > NAME_MAX) || Buffer.byteLength(name) >= PATH_MAX) {
    throw new BackupError(`The archive holds a name too long for a file system (over ${NAME_MAX} bytes in one part): ${shown}`);
  }
  const rel = rest.join('/');
  if (format === 2) {
    if (root === 'db' && rest.length === 1 && rel.endsWith('.ndjson')) return { root: 'db', rel };
    if ((root === 'data' || root === 'media') && rel) return { root, rel };
  } else {
    if (root === 'db' && rest.length === 1 && rel.endsWith('.json')) return { root: 'db', rel: rel.replace(/\.json$/, '.ndjson') };
    if (root === 'files' && rel) return { root: 'data', rel };
  }
  throw new BackupError(`The archive holds an entry this version does not know: ${shown}`);
}

export type VerifyResult = { manifest: BackupManifest; entries: number; bytes: number; size: number };

const FORMAT_1 = 'was made by an older version of the site (format 1) and has no checksums to verify against; it restores with --unsigned';

/** Throws when the server is stopping (`signal`): a check of a large archive must not hold up the shutdown. */
export function stopIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new BackupError(STOPPED);
}

/**
 * Reads the whole archive and runs every check a restore depends on: each entry a file with a safe
 * name of a place restore knows (placeOf), restored to a place no other entry takes; the same entries
 * as the manifest, in order, each of the listed size and SHA-256; the manifest last but for its
 * signature, which must be the trusted key's (backups.key.ts). Throws a BackupError naming what is wrong.
 */
export async function verifyArchive(file: string, trust: Trust, signal?: AbortSignal): Promise<VerifyResult> {
  const seen: ManifestEntry[] = [];
  const places = new Set<string>();
  let manifest: BackupManifest | undefined;
  let manifestBytes: Buffer | undefined;
  let signature: Buffer | null = null;
  try {
    for await (const entry of readArchive(file)) {
      stopIfAborted(signal);
      if (signature) throw new BackupError(`${file}: an entry (${entry.name}) follows the signature, which must be last`);
      if (manifestBytes) {
        if (entry.name !== SIGNATURE) throw new BackupError(`${file}: an entry (${entry.name}) follows the manifest, which must be last`);
        signature = await readSmallEntry(entry, 64 * 1024);
        continue;
      }
      if (entry.name === MANIFEST) {
        manifestBytes = await readSmallEntry(entry);
        const read = parseManifest(manifestBytes, file);
        if (read.format === 1) throw new BackupError(`${file} ${FORMAT_1}`);
        manifest = read;
        continue;
      }
      const place = placeOf(entry, 2);
      if (place) {
        const key = `${place.root}/${place.rel}`;
        if (places.has(key)) throw new BackupError(`${file}: two entries restore to the same place (${entry.name})`);
        places.add(key);
      }
      seen.push(await digestEntry(entry, signal));
    }
  } catch (error) {
    throw unreadable(file, error);
  }
  if (!manifest || !manifestBytes) throw new BackupError(`${file} has no manifest: it was cut short or is not a backup of this site`);
  const problems = compareEntries(manifest.entries, seen);
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).join('; ');
    throw new BackupError(`${file} does not match its manifest: ${shown}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`);
  }
  checkSignature(file, manifestBytes, signature, trust);
  return { manifest, entries: seen.length, bytes: seen.reduce((n, e) => n + e.size, 0), size: (await fsp.stat(file)).size };
}

function compareEntries(expected: ManifestEntry[], seen: ManifestEntry[]): string[] {
  const problems: string[] = [];
  const listed = new Map(expected.map((e) => [e.name, e]));
  const found = new Set<string>();
  for (const entry of seen) {
    const want = listed.get(entry.name);
    if (!want) problems.push(`${entry.name} is not in the manifest`);
    else if (found.has(entry.name)) problems.push(`${entry.name} appears twice`);
    else if (want.size !== entry.size) problems.push(`${entry.name} is ${entry.size} bytes, the manifest says ${want.size}`);
    else if (want.sha256 !== entry.sha256) problems.push(`${entry.name} has a different SHA-256 than the manifest`);
    found.add(entry.name);
  }
  for (const name of listed.keys()) if (!found.has(name)) problems.push(`${name} is missing`);
  return problems;
}

