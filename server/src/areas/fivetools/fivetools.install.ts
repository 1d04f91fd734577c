import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import * as tar from 'tar';
import yauzl from 'yauzl';

/**
 * Installs a 5eTools copy from a release archive (zip or tar.gz) or an unpacked folder: unpacked into
 * a temporary folder beside the target, compressed (.br and .gz beside each text file, which the
 * server sends to browsers that accept them), and only then swapped in for the old copy. A failure
 * at any step leaves the old copy as it was.
 */

export class InstallError extends Error {}

export const COMPRESSED_SUFFIX = { br: '.br', gzip: '.gz' } as const;

const COMPRESSIBLE = new Set(['.html', '.htm', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.xml', '.map', '.webmanifest', '.md', '.csv']);
/** Smaller files gain nothing worth a second request path. */
const MIN_COMPRESS_BYTES = 1024;

export function isCompressible(file: string): boolean {
  return COMPRESSIBLE.has(path.extname(file).toLowerCase());
}

export type InstallReport = { files: number; compressed: number; target: string };
export type InstallOptions = { log?: (line: string) => void };

type SourceKind = 'folder' | 'zip' | 'tar.gz';

async function kindOf(source: string): Promise<SourceKind> {
  let stat: fs.Stats;
  try {
    stat = await fsp.stat(source);
  } catch {
    throw new InstallError(`Nothing at ${source}`);
  }
  if (stat.isDirectory()) return 'folder';
  const handle = await fsp.open(source, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'zip';
    if (head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
  } finally {
    await handle.close();
  }
  throw new InstallError(`${source} is not a zip or tar.gz archive, nor a folder`);
}

/** True when `child` is `parent` or inside it. */
function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function unzip(archive: string, dest: string): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.open(archive, { lazyEntries: true, autoClose: true, strictFileNames: false, validateEntrySizes: true }, (openError, zip) => {
      if (openError || !zip) return reject(new InstallError(`Cannot read the zip archive: ${openError?.message ?? 'unknown error'}`));
      zip.on('error', (error: Error) => reject(new InstallError(`Cannot read the zip archive: ${error.message}`)));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          const name = entry.fileName.replaceAll('\\', '/');
          const file = path.resolve(dest, name);
          if (!isWithin(dest, file)) throw new InstallError(`The archive names a path outside its folder: ${entry.fileName}`);
          const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
          if (name.endsWith('/')) {
            await fsp.mkdir(file, { recursive: true });
          } else if (mode === 0o120000) {
            // Symbolic links could point anywhere on the server: they are left out.
          } else {
            await fsp.mkdir(path.dirname(file), { recursive: true });
            const stream = await new Promise<NodeJS.ReadableStream>((ok, fail) =>
              zip.openReadStream(entry, (error, readStream) => (error || !readStream ? fail(error ?? new Error('no stream')) : ok(readStream))),
            );
            await pipeline(stream, fs.createWriteStream(file));
          }
          zip.readEntry();
        })().catch((error: unknown) => {
          zip.close();
          reject(error instanceof InstallError ? error : new InstallError(`Cannot unpack the zip archive: ${(error as Error).message}`));
        });
      });
      zip.readEntry();
    });
  });
}

async function untar(archive: string, dest: string): Promise<void> {
  try {
    await tar.x({
      file: archive,
      cwd: dest,
      strict: true,
      // Files and folders only: links could point anywhere on the server. tar itself refuses '..' and absolute paths.
      filter: (_file, entry) => !('type' in entry) || ['File', 'OldFile', 'ContiguousFile', 'Directory'].includes(entry.type),
    });
  } catch (error) {
    throw new InstallError(`Cannot unpack the tar.gz archive: ${(error as Error).message}`);
  }
}

async function copyFolder(source: string, dest: string): Promise<void> {
  await fsp.cp(source, dest, {
    recursive: true,
    errorOnExist: true,
    filter: (src) => !fs.lstatSync(src).isSymbolicLink(),
  });
}

/** The folder holding the site's index.html: the top, or the shallowest one below it (releases wrap the site in a folder). */
async function findSiteRoot(dir: string): Promise<string | null> {
  let level = [dir];
  for (let depth = 0; depth < 4 && level.length > 0; depth++) {
    for (const candidate of level) if (fs.existsSync(path.join(candidate, 'index.html'))) return candidate;
    const next: string[] = [];
    for (const candidate of level) {
      for (const entry of await fsp.readdir(candidate, { withFileTypes: true })) {
        if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== '__MACOSX') next.push(path.join(candidate, entry.name));
      }
    }
    level = next.sort();
  }
  return null;
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

async function compressOne(file: string): Promise<boolean> {
  const size = (await fsp.stat(file)).size;
  if (size < MIN_COMPRESS_BYTES) return false;
  let written = false;
  const variants = [
    { suffix: COMPRESSED_SUFFIX.br, make: () => zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size } }) },
    { suffix: COMPRESSED_SUFFIX.gzip, make: () => zlib.createGzip({ level: 9 }) },
  ];
  for (const { suffix, make } of variants) {
    const out = file + suffix;
    await pipeline(fs.createReadStream(file), make(), fs.createWriteStream(out));
    // Kept only when it saves at least a tenth.
    if ((await fsp.stat(out)).size > size * 0.9) await fsp.rm(out);
    else written = true;
  }
  return written;
}

async function compressAll(root: string): Promise<{ files: number; compressed: number }> {
  const todo: string[] = [];
  let files = 0;
  for await (const file of walk(root)) {
    files++;
    if (isCompressible(file)) todo.push(file);
  }
  let compressed = 0;
  const workers = Array.from({ length: 4 }, async () => {
    for (let file = todo.pop(); file !== undefined; file = todo.pop()) if (await compressOne(file)) compressed++;
  });
  await Promise.all(workers);
  return { files, compressed };
}

export async function installFivetools(source: string, target: string, options: InstallOptions = {}): Promise<InstallReport> {
  const log = options.log ?? (() => {});
  const from = path.resolve(source);
  const to = path.resolve(target);
  const kind = await kindOf(from);
  if (kind === 'folder' && (isWithin(from, to) || isWithin(to, from))) {
    throw new InstallError('Install from a folder outside the mirror folder (and not containing it)');
  }
  const parent = path.dirname(to);
  await fsp.mkdir(parent, { recursive: true });
  const staging = await fsp.mkdtemp(path.join(parent, `.${path.basename(to)}.incoming-`));
  const unpacked = path.join(staging, 'site');
  await fsp.mkdir(unpacked);
  let old: string | null = null;
  try {
    log(`Unpacking ${kind} ${from}`);
    if (kind === 'zip') await unzip(from, unpacked);
    else if (kind === 'tar.gz') await untar(from, unpacked);
    else await copyFolder(from, unpacked);
    const root = await findSiteRoot(unpacked);
    if (!root) throw new InstallError(`No index.html in ${source}: is it a 5eTools release?`);
    log('Compressing text files (.br and .gz beside each)');
    const counts = await compressAll(root);
    await fsp.writeFile(path.join(root, '.install.json'), JSON.stringify({ source: from, installedAt: new Date().toISOString(), ...counts }, null, 2));

    // The swap: the old copy steps aside, the complete new one takes its name, the old one goes.
    if (fs.existsSync(to)) {
      old = path.join(parent, `.${path.basename(to)}.old-${randomBytes(4).toString('hex')}`);
      await fsp.rename(to, old);
    }
    try {
      await fsp.rename(root, to);
    } catch (error) {
      if (old) await fsp.rename(old, to);
      old = null;
      throw error;
    }
    log(`Installed ${counts.files} files into ${to}`);
    return { ...counts, target: to };
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
    if (old) await fsp.rm(old, { recursive: true, force: true });
  }
}

/** True when a copy is installed (its index page is there). */
export function isInstalled(target: string): boolean {
  return fs.existsSync(path.join(target, 'index.html'));
}
