import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { importMessages, jsonLdMessages, RECIPE_LIMITS, recipeInput, recipesMessages, type ImportReportEntry, type RecipeData, type UnitDict } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../identity/session-user.ts';
import { addressGuard, type NetPolicy } from '../../net/address-guard.ts';
import { fetchPage, type FetchLimits } from '../../net/fetch-page.ts';
import { readRecipe } from './recipes.read.ts';
import { findBySourceUrl } from './recipes.repository.ts';
import { create, units } from './recipes.service.ts';

/** A recipe read from text, checked against the same schema the editor's saves are. */
function recipeOf(dict: UnitDict, text: string, source: 'file' | 'page'): RecipeData {
  const parsed = readRecipe(text, dict);
  if (!parsed.ok) {
    const noRecipe = parsed.message === jsonLdMessages.noRecipe;
    throw new AppError('BAD_REQUEST', source === 'page' && noRecipe ? recipesMessages.noRecipeOnPage : parsed.message);
  }
  const checked = recipeInput.safeParse(parsed.recipe);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (at ${issue.path.join('.')})` : '';
    throw new AppError('BAD_REQUEST', `The recipe does not import: ${issue?.message ?? 'invalid'}${where}`);
  }
  return checked.data;
}

/**
 * A schema.org Recipe (JSON-LD text, or a page holding one) saved as a new recipe; what does not
 * import says why. `dict` is the unit dictionary when the caller already has it (a batch reads it once).
 */
export async function importJsonLd(deps: AppDeps, actor: Actor, text: string, dict?: UnitDict): Promise<{ recipe_id: number; title: string }> {
  if (text.trim() === '') throw new AppError('BAD_REQUEST', importMessages.empty);
  const data = recipeOf(dict ?? (await units(deps)), text, 'file');
  const { recipe_id } = await create(deps, actor, data);
  return { recipe_id, title: data.title };
}

/** The limits of a recipe page fetch: pages with their inline scripts run to a few MB at most. */
export const RECIPE_PAGE_LIMITS: FetchLimits = { maxBytes: 5_000_000, timeoutMs: 20_000, maxRedirects: 5 };

const linkGuard = addressGuard(recipesMessages.link);

const pageTypes = /^(?:text\/html|application\/xhtml\+xml|application\/(?:ld\+)?json|text\/plain)\b|^$/;

/**
 * A recipe page's link: fetched through the same address guard as YT-DL (no loopback, private,
 * link-local or metadata addresses unless DOWNLOAD_ALLOW_PRIVATE_HOSTS, every redirect checked
 * again, size and time limits), its JSON-LD read and saved as a new recipe.
 */
export async function importUrl(
  deps: AppDeps,
  actor: Actor,
  url: string,
  test: { policy?: Omit<NetPolicy, 'allowPrivate'>; limits?: Partial<FetchLimits> } = {},
  options: { copy?: boolean } = {},
): Promise<ImportedFromLink> {
  const source = linkKey(url);
  if (source !== null && !options.copy) {
    const existing = await findBySourceUrl(deps.db, source);
    if (existing) return { recipe_id: existing.id, title: existing.title, alreadyImported: true };
  }
  const page = await fetchPage(url, {
    guard: linkGuard,
    policy: { ...test.policy, allowPrivate: deps.config.download.allowPrivateHosts },
    limits: { ...RECIPE_PAGE_LIMITS, ...test.limits },
    messages: {
      status: recipesMessages.pageStatus,
      tooLarge: recipesMessages.pageTooLarge,
      timeout: recipesMessages.pageTimeout,
      unreachable: recipesMessages.pageUnreachable,
      tooManyRedirects: recipesMessages.tooManyRedirects,
      notAccepted: recipesMessages.notHtml,
    },
    accepts: (type) => pageTypes.test(type),
    accept: 'text/html,application/xhtml+xml,application/ld+json;q=0.9,*/*;q=0.5',
  });
  const data = recipeOf(await units(deps), page.text, 'page');
  const { recipe_id } = await create(deps, actor, data, source === null ? undefined : { url: source });
  return { recipe_id, title: data.title, alreadyImported: false };
}

/**
 * What importing a link did: imported it as a new recipe, or found it imported before (`alreadyImported`:
 * nothing was fetched or written; the page offers to open that recipe or import again as a copy).
 */
export type ImportedFromLink = { recipe_id: number; title: string; alreadyImported: boolean };

/** A link as it is remembered: parsed and without its #fragment (the same page); null if it is not one. */
function linkKey(url: string): string | null {
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    parsed.hash = '';
    return parsed.href;
  } catch {
    return null;
  }
}

/** The most files (zip entries included) one many-at-once import takes. */
export const MAX_IMPORT_FILES = 500;
const MAX_ZIP_BYTES = 50 * 1024 * 1024;

/**
 * One uploaded file: its bytes in memory (the command line, tests), or a temporary file the upload was
 * streamed to (the Recipes page), read only as far as a recipe may be.
 */
export type ImportFile = { name: string } & ({ bytes: Buffer } | { path: string; size: number });

/** A file or zip entry to import: its size, and its bytes when asked for (one at a time). */
type Pending = { name: string; size: number; read: () => Promise<Buffer> };
type Item = ImportReportEntry | Pending;

/** What a zip may hold besides recipes (README.txt, pictures): named in the report, not read. */
const RECIPE_ENTRY = /\.(?:jsonld|json-ld|json|html?)$/i;

async function headOf(file: ImportFile, length: number): Promise<Buffer> {
  if ('bytes' in file) return file.bytes.subarray(0, length);
  const handle = await fsp.open(file.path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const isZip = async (file: ImportFile) => (await headOf(file, 4)).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) || /\.zip$/i.test(file.name);

const sizeOf = (file: ImportFile) => ('bytes' in file ? file.bytes.length : file.size);

/** A whole file or entry as a pending item (read when its turn comes, never past the recipe limit). */
function pendingOf(file: ImportFile): Pending {
  return {
    name: file.name,
    size: sizeOf(file),
    read: async () => ('bytes' in file ? file.bytes : fsp.readFile(file.path)),
  };
}

/** A stream read whole, refusing it past `max` bytes (a zip entry that lies about its size). */
function collect(stream: Readable, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        stream.destroy();
        reject(new AppError('BAD_REQUEST', importMessages.tooLarge));
      } else chunks.push(chunk);
    });
    stream.on('error', () => reject(new AppError('BAD_REQUEST', recipesMessages.notZip)));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/**
 * The entries of a zip (folders, macOS resource forks and hidden files left out), listed without
 * reading them: each is read when its turn to import comes, so a zip costs one recipe's memory at a
 * time. Entries that are not recipe files (README.txt, pictures) are named as skipped.
 */
function openZip(file: ImportFile): Promise<{ items: Item[]; close: () => void }> {
  return new Promise((resolve, reject) => {
    const opened = (openError: Error | null, zip?: yauzl.ZipFile) => {
      if (openError || !zip) return reject(new AppError('BAD_REQUEST', recipesMessages.notZip));
      const items: Item[] = [];
      let total = 0;
      let count = 0;
      const fail = (error: AppError) => {
        zip.close();
        reject(error);
      };
      zip.on('error', () => fail(new AppError('BAD_REQUEST', recipesMessages.notZip)));
      zip.on('end', () => resolve({ items, close: () => zip.close() }));
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName.replaceAll('\\', '/');
        const base = name.split('/').pop() ?? '';
        const shown = `${file.name}/${name}`;
        if (name.endsWith('/') || name.startsWith('__MACOSX/') || base.startsWith('.')) return zip.readEntry();
        if (++count > MAX_IMPORT_FILES) return fail(new AppError('BAD_REQUEST', recipesMessages.tooManyFiles(MAX_IMPORT_FILES)));
        if (!RECIPE_ENTRY.test(base)) {
          items.push({ file: shown, ok: false, skipped: true, message: importMessages.skipped });
          return zip.readEntry();
        }
        total += entry.uncompressedSize;
        if (entry.uncompressedSize > RECIPE_LIMITS.importBytes || total > MAX_ZIP_BYTES) {
          // Too large to be a recipe: reported, not read.
          items.push({ file: shown, ok: false, message: importMessages.tooLarge });
          return zip.readEntry();
        }
        items.push({
          name: shown,
          size: entry.uncompressedSize,
          read: () =>
            new Promise<Buffer>((done, refuse) => {
              zip.openReadStream(entry, (error, stream) => {
                if (error || !stream) return refuse(new AppError('BAD_REQUEST', recipesMessages.notZip));
                collect(stream, RECIPE_LIMITS.importBytes).then(done, refuse);
              });
            }),
        });
        zip.readEntry();
      });
      zip.readEntry();
    };
    const options = { lazyEntries: true, autoClose: false, strictFileNames: false, validateEntrySizes: true };
    if ('bytes' in file) yauzl.fromBuffer(file.bytes, options, opened);
    else yauzl.open(file.path, options, opened);
  });
}

/**
 * Several JSON-LD files, zips of them, or both: each imported on its own (one that fails does not
 * stop the others), and a report line per file: imported as which recipe, refused and why, or skipped
 * (a zip's README.txt). Files are read one at a time, never more than a recipe may be.
 */
export async function importMany(deps: AppDeps, actor: Actor, files: ImportFile[]): Promise<ImportReportEntry[]> {
  if (files.length === 0) throw new AppError('BAD_REQUEST', recipesMessages.noFiles);
  // Every file is known (zips listed) before anything is written, so a batch over the limit changes nothing.
  const items: Item[] = [];
  const zips: { close: () => void }[] = [];
  try {
    for (const file of files) {
      if (!(await isZip(file))) items.push(pendingOf(file));
      else {
        try {
          const zip = await openZip(file);
          zips.push(zip);
          items.push(...zip.items);
        } catch (error) {
          items.push({ file: file.name, ok: false, message: error instanceof AppError ? error.message : recipesMessages.notZip });
        }
      }
    }
    if (items.length > MAX_IMPORT_FILES) throw new AppError('BAD_REQUEST', recipesMessages.tooManyFiles(MAX_IMPORT_FILES));
    const done: ImportReportEntry[] = [];
    let dict: UnitDict | undefined;
    for (const item of items) {
      if (!('read' in item)) done.push(item);
      else if (item.size > RECIPE_LIMITS.importBytes) done.push({ file: item.name, ok: false, message: importMessages.tooLarge });
      else {
        try {
          const text = (await item.read()).toString('utf8');
          dict ??= await units(deps);
          const { recipe_id, title } = await importJsonLd(deps, actor, text, dict);
          done.push({ file: item.name, ok: true, recipe_id, title });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          done.push({ file: item.name, ok: false, message: error.message });
        }
      }
    }
    return done;
  } finally {
    for (const zip of zips) zip.close();
  }
}
