import fs from 'node:fs';
import path from 'node:path';
import { importInput, KITCHEN_UNITS, type ImportReportEntry } from '@site/contracts';
import { ConfigError, loadConfig } from '@site/server/config';
import { createDb, DatabaseInUseError, dbTargetFromConfig } from '@site/server/db/database';
import { migrateToLatest } from '@site/server/migrations';
import { createDeps } from '@site/server/deps';
import * as recipes from '@site/server/areas/recipes/recipes.service';
import { importJsonLd, importMany, importUrl } from '@site/server/areas/recipes/recipes.import';
import { readRecipe } from '@site/server/areas/recipes/recipes.read';
import { cliActor } from '@site/server/identity/session-user';
import { AppError } from '@site/server/errors';

const usage = `Usage:
  npm run recipes -- import FILE     add the schema.org Recipe (JSON-LD) in FILE to the recipes
  npm run recipes -- import URL      fetch a recipe page (http or https) and add the recipe it holds;
                                     a link imported before says so (--copy imports it again)
  npm run recipes -- import FILE...  several JSON-LD files and/or .zip archives of them: each is
                                     imported on its own, then a line per file says what became of it
  npm run recipes -- export ID       print recipe ID as a schema.org Recipe (JSON-LD)
  npm run recipes -- list            every recipe: id, title, author, date

Uses the same configuration as the server (DATA_DIR, DATABASE_URL). With the embedded database,
stop the server first (only one process may open it), or use Import JSON-LD on the Recipes page.
Links are fetched with the server's guard: private and local addresses only with
DOWNLOAD_ALLOW_PRIVATE_HOSTS=true.`;

const isLink = (arg: string) => /^https?:\/\//i.test(arg);

/** One line of the many-at-once report. */
export const reportLine = (entry: ImportReportEntry) =>
  entry.ok
    ? `imported  ${entry.file}: "${entry.title}" as recipe ${entry.recipe_id}`
    : entry.skipped
      ? `skipped   ${entry.file}: ${entry.message.replace(/^skipped: /, '')}`
      : `refused   ${entry.file}: ${entry.message}`;

function readFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new AppError('BAD_REQUEST', `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

export async function main(args: string[], out: (line: string) => void = console.log): Promise<number> {
  const copy = args.includes('--copy');
  const argv = args.filter((a) => a !== '--copy');
  const [command, arg, ...extra] = argv;
  const known = (command === 'import' && arg !== undefined) || (command === 'export' && arg !== undefined && extra.length === 0);
  if (!known && !(command === 'list' && arg === undefined)) {
    console.error(usage);
    return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
  const sources = command === 'import' ? [arg as string, ...extra] : [];
  const single = sources.length === 1 && !/\.zip$/i.test(sources[0] ?? '') ? (sources[0] as string) : null;
  let json = '';
  if (single !== null && !isLink(single)) {
    const parsed = importInput.safeParse({ json: readFile(single) });
    if (!parsed.success) throw new AppError('BAD_REQUEST', `${path.basename(single)} does not import: ${parsed.error.issues[0]?.message ?? 'unreadable'}`);
    json = parsed.data.json;
    // What is wrong with the file is found before the database is opened (the dictionary only changes units).
    const precheck = readRecipe(json, KITCHEN_UNITS);
    if (!precheck.ok) throw new AppError('BAD_REQUEST', `${path.basename(single)} does not import: ${precheck.message}`);
  }
  if (single === null && sources.some(isLink)) {
    console.error(usage);
    return 2;
  }
  // Many at once: every file is read before the database is opened (an unreadable one is reported, not fatal).
  const files = single === null ? sources.map((file) => ({ name: path.basename(file), bytes: readBytes(file) })) : [];
  const recipeId = Number(arg);
  if (command === 'export' && !(Number.isInteger(recipeId) && recipeId > 0)) {
    console.error(usage);
    return 2;
  }

  const config = loadConfig();
  const handle = await createDb(dbTargetFromConfig(config));
  try {
    await migrateToLatest(handle.db);
    const deps = createDeps(config, handle.db);
    if (single !== null) {
      try {
        const answer = isLink(single) ? await importUrl(deps, cliActor, single, {}, { copy }) : await importJsonLd(deps, cliActor, json);
        if ('alreadyImported' in answer && answer.alreadyImported) {
          out(`Already imported as recipe ${answer.recipe_id} ("${answer.title}"): add --copy to import it again`);
          return 1;
        }
        out(`Imported "${answer.title}" as recipe ${answer.recipe_id}`);
      } catch (error) {
        if (error instanceof AppError) throw new AppError(error.code, `${isLink(single) ? single : path.basename(single)} does not import: ${error.message}`);
        throw error;
      }
    } else if (command === 'import') {
      const readable = files.filter((f): f is { name: string; bytes: Buffer } => f.bytes instanceof Buffer);
      const report = readable.length > 0 ? await importMany(deps, cliActor, readable) : [];
      const unreadable = files.flatMap((f) => (typeof f.bytes === 'string' ? [{ file: f.name, ok: false as const, message: f.bytes }] : []));
      const all: ImportReportEntry[] = [...report, ...unreadable];
      for (const entry of all) out(reportLine(entry));
      const imported = all.filter((e) => e.ok).length;
      const skipped = all.filter((e) => !e.ok && e.skipped).length;
      out(`${imported} imported, ${all.length - imported - skipped} refused${skipped > 0 ? `, ${skipped} skipped` : ''}`);
      return imported + skipped === all.length ? 0 : 1;
    } else if (command === 'export') {
      out(JSON.stringify(await recipes.exportJsonLd(deps, recipeId), null, 2));
    } else {
      const list = await recipes.list(deps);
      if (list.length === 0) out('No recipes yet.');
      for (const r of list) out(`${String(r.recipe_id).padStart(4)}  ${r.uploaded_date}  ${r.title}${r.author ? ` - ${r.author}` : ''}`);
    }
    return 0;
  } finally {
    await handle.close();
  }
}

/** A file's bytes, or why it cannot be read (reported with the others). */
function readBytes(file: string): Buffer | string {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    return `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
}

export function explain(error: unknown): string {
  if (error instanceof DatabaseInUseError) {
    return `${error.message}\nThe running server holds the embedded database. Stop it and run this again, or import the file on the Recipes page (Import JSON-LD).`;
  }
  if (error instanceof AppError || error instanceof ConfigError) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(explain(error));
      process.exitCode = 1;
    },
  );
}
