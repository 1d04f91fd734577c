import { loadConfig } from './config.ts';
import { createDb, dbTargetFromConfig } from './db/database.ts';
import { migrateToLatest } from './migrations.ts';

const config = loadConfig();
const handle = await createDb(dbTargetFromConfig(config));
try {
  const applied = await migrateToLatest(handle.db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database already up to date');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await handle.close();
}
