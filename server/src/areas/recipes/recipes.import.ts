import yauzl from 'yauzl';
import { importMessages, jsonLdMessages, RECIPE_LIMITS, recipeInput, recipesMessages, type ImportReportEntry, type RecipeData, type UnitDict } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../identity/session-user.ts';
import { addressGuard, type NetPolicy } from '../../net/address-guard.ts';
import { fetchPage, type FetchLimits } from '../../net/fetch-page.ts';
import { readRecipe } from './recipes.read.ts';
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
): Promise<{ recipe_id: number; title: string }> {
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
  const { recipe_id } = await create(deps, actor, data);
  return { recipe_id, title: data.title };
}

/** The most files (zip entries included) one many-at-once import takes. */
export const MAX_IMPORT_FILES = 500;
const MAX_ZIP_BYTES = 50 * 1024 * 1024;

export type ImportFile = { name: string; bytes: Buffer; tooLarge?: boolean };

const isZip = (file: ImportFile) => file.bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) || /\.zip$/i.test(file.name);

/** The files inside a zip (folders, macOS resource forks and hidden files left out), each read whole up to the import limit. */
function unzip(file: ImportFile): Promise<ImportFile[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(file.bytes, { lazyEntries: true, strictFileNames: false, validateEntrySizes: true }, (openError, zip) => {
      if (openError || !zip) return reject(new AppError('BAD_REQUEST', recipesMessages.notZip));
      const files: ImportFile[] = [];
      let total = 0;
      zip.on('error', () => reject(new AppError('BAD_REQUEST', recipesMessages.notZip)));
      zip.on('end', () => resolve(files));
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName.replaceAll('\\', '/');
        const base = name.split('/').pop() ?? '';
        if (name.endsWith('/') || name.startsWith('__MACOSX/') || base.startsWith('.')) return zip.readEntry();
        if (files.length >= MAX_IMPORT_FILES) {
          zip.close();
          return reject(new AppError('BAD_REQUEST', recipesMessages.tooManyFiles(MAX_IMPORT_FILES)));
        }
        total += entry.uncompressedSize;
        if (entry.uncompressedSize > RECIPE_LIMITS.importBytes || total > MAX_ZIP_BYTES) {
          // Too large to be a recipe: reported, not read.
          files.push({ name: `${file.name}/${name}`, bytes: Buffer.alloc(0), tooLarge: true });
          return zip.readEntry();
        }
        zip.openReadStream(entry, (error, stream) => {
          if (error || !stream) return reject(new AppError('BAD_REQUEST', recipesMessages.notZip));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', () => reject(new AppError('BAD_REQUEST', recipesMessages.notZip)));
          stream.on('end', () => {
            files.push({ name: `${file.name}/${name}`, bytes: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}


/**
 * Several JSON-LD files, zips of them, or both: each imported on its own (one that fails does not
 * stop the others), and a report line per file: imported as which recipe, or refused and why.
 */
export async function importMany(deps: AppDeps, actor: Actor, files: ImportFile[]): Promise<ImportReportEntry[]> {
  if (files.length === 0) throw new AppError('BAD_REQUEST', recipesMessages.noFiles);
  // Every file is known (zips opened) before anything is written, so a batch over the limit changes nothing.
  const report: (ImportReportEntry | ImportFile)[] = [];
  for (const file of files) {
    if (!isZip(file)) report.push(file);
    else {
      try {
        report.push(...(await unzip(file)));
      } catch (error) {
        report.push({ file: file.name, ok: false, message: error instanceof AppError ? error.message : recipesMessages.notZip });
      }
    }
  }
  if (report.length > MAX_IMPORT_FILES) throw new AppError('BAD_REQUEST', recipesMessages.tooManyFiles(MAX_IMPORT_FILES));
  const done: ImportReportEntry[] = [];
  let dict: UnitDict | undefined;
  for (const item of report) {
    if (!('bytes' in item)) done.push(item);
    else if (item.tooLarge || item.bytes.length > RECIPE_LIMITS.importBytes) done.push({ file: item.name, ok: false, message: importMessages.tooLarge });
    else {
      try {
        dict ??= await units(deps);
        const { recipe_id, title } = await importJsonLd(deps, actor, item.bytes.toString('utf8'), dict);
        done.push({ file: item.name, ok: true, recipe_id, title });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        done.push({ file: item.name, ok: false, message: error.message });
      }
    }
  }
  return done;
}
