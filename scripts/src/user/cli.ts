import { LEVEL_NAMES, levelSchema, setLevelInput, type Level } from '@site/contracts';
import { ConfigError, loadConfig } from '@site/server/config';
import { createDb, DatabaseInUseError, dbTargetFromConfig } from '@site/server/db/database';
import { migrateToLatest } from '@site/server/db/migrate';
import { createDeps } from '@site/server/deps';
import * as admin from '@site/server/areas/admin/admin.service';
import { cliActor } from '@site/server/identity/session-user';
import { AppError } from '@site/server/errors';
import { runMain } from '../run-main.ts';

const usage = `Usage:
  npm run user -- list                    every account and its level
  npm run user -- set-level NAME LEVEL    set an account's level (0 pending, 1 friend, 2 family, 3 admin)

Uses the same configuration as the server (DATA_DIR, DATABASE_URL). On PostgreSQL (DATABASE_URL)
it works while the server runs, and a level change applies to that account's next request. The
embedded database (PGlite) opens in one process only: while the server runs, change levels on the
Admin page (/admin), or stop the server, run this, and start it again.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'list' && command !== 'set-level') {
    console.error(usage);
    return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
  let level: Level | undefined;
  if (command === 'set-level') {
    const [name, levelText] = rest;
    const parsed = levelSchema.safeParse(Number(levelText));
    if (!name || levelText === undefined || !/^\d+$/.test(levelText) || !parsed.success) {
      console.error(usage);
      return 2;
    }
    level = parsed.data as Level;
  }

  const config = loadConfig();
  const handle = await createDb(dbTargetFromConfig(config));
  try {
    await migrateToLatest(handle.db);
    const deps = createDeps(config, handle.db);
    if (command === 'list') {
      const users = await admin.users(deps);
      if (users.length === 0) console.log('No accounts yet. The first sign-up becomes the owner (level 3).');
      for (const u of users) console.log(`${u.level}  ${LEVEL_NAMES[u.level as Level].padEnd(8)}  ${u.name}`);
    } else {
      const updated = await admin.setLevel(deps, cliActor, setLevelInput.parse({ name: rest[0] ?? '', level: level ?? 0 }));
      console.log(`${updated.name} is now level ${updated.level} (${LEVEL_NAMES[updated.level as Level]})`);
    }
    return 0;
  } finally {
    await handle.close();
  }
}

runMain(main, [AppError, ConfigError, DatabaseInUseError], {
  kind: DatabaseInUseError,
  text:
    'While the server runs on the embedded database, change levels on the Admin page (/admin); or stop the server, ' +
    'run this command again, then start the server (`npm start`).',
});
