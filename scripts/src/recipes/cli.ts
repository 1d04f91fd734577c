import fs from 'node:fs';
import path from 'node:path';
import { importInput, KITCHEN_UNITS, recipeFromJsonLd } from '@site/contracts';
import { ConfigError, loadConfig } from '@site/server/config';
import { createDb, DatabaseInUseError, dbTargetFromConfig } from '@site/server/db/database';
import { migrateToLatest } from '@site/server/db/migrate';
import { createDeps } from '@site/server/deps';
import * as recipes from '@site/server/areas/recipes/recipes.service';
import { cliActor } from '@site/server/identity/session-user';
import { AppError } from '@site/server/errors';

const usage = `Usage:
  npm run recipes -- import FILE     add the schema.org Recipe (JSON-LD) in FILE to the recipes
  npm run recipes -- export ID       print recipe ID as a schema.org Recipe (JSON-LD)
  npm run recipes -- list            every recipe: id, title, author, date

Uses the same configuration as the server (DATA_DIR, DATABASE_URL). With the embedded database,
stop the server first (only one process may open it), or use Import JSON-LD on the Recipes page.`;

function readFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new AppError('BAD_REQUEST', `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

export async function main(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const [command, arg, ...extra] = argv;
  const known = (command === 'import' || command === 'export') && arg !== undefined && extra.length === 0;
  if (!known && !(command === 'list' && arg === undefined)) {
    console.error(usage);
    return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
  let json = '';
  if (command === 'import') {
    const parsed = importInput.safeParse({ json: readFile(arg as string) });
    if (!parsed.success) throw new AppError('BAD_REQUEST', `${path.basename(arg as string)}: ${parsed.error.issues[0]?.message ?? 'unreadable'}`);
    json = parsed.data.json;
    // What is wrong with the file is found before the database is opened (the dictionary only changes units).
    const precheck = recipeFromJsonLd(json, KITCHEN_UNITS);
    if (!precheck.ok) throw new AppError('BAD_REQUEST', `${path.basename(arg as string)} does not import: ${precheck.message}`);
  }
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
    if (command === 'import') {
      try {
        const { recipe_id, title } = await recipes.importJsonLd(deps, cliActor, json);
        out(`Imported "${title}" as recipe ${recipe_id}`);
      } catch (error) {
        if (error instanceof AppError) throw new AppError(error.code, `${path.basename(arg as string)} does not import: ${error.message}`);
        throw error;
      }
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
