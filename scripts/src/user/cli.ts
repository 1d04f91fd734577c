import { LEVEL_NAMES, levelSchema, setLevelInput, type Level } from '@site/contracts';
import { ConfigError, loadConfig } from '@site/server/config';
import { createDb, DatabaseInUseError, dbTargetFromConfig } from '@site/server/db/database';
import { migrateToLatest } from '@site/server/migrations';
import { ControlUnavailableError, requestAccountCommand, requestSetupCode } from '@site/server/local-commands/control';
import { AccountCommandError, accountCommand } from '@site/server/areas/auth/commands';
import { setupCode } from '@site/server/areas/auth/setup-code';
import { createDeps } from '@site/server/deps';
import * as admin from '@site/server/areas/admin/admin.service';
import { cliActor } from '@site/server/identity/session-user';
import { AppError } from '@site/server/errors';
import { runMain } from '../run-main.ts';

const usage = `Usage:
  npm run user -- list                    every account and its level
  npm run user -- set-level NAME LEVEL    set an account's level (0 pending, 1 friend, 2 family, 3 admin)
  npm run user -- setup-code              the code that creates the first (owner's) account from another machine
  npm run user -- reset-link NAME         a one-time link (24 hours) for NAME to set a new password
  npm run user -- token NAME [--label L] [--scope S]...
                                          a personal API token for NAME (the last word printed); each
                                          --scope (todo:read, todo:write, *:read) narrows it, none: every right

Uses the same configuration as the server (DATA_DIR, DATABASE_URL). On PostgreSQL (DATABASE_URL)
it works while the server runs, and a level change applies to that account's next request. The
embedded database (PGlite) opens in one process only: while the server runs, change levels on the
Admin page (/admin), or stop the server, run this, and start it again.`;

/**
 * The first account's setup code. A server on the embedded database holds it, so that server is asked
 * over its control socket (DATA_DIR/control.sock, as `npm run backup` does: only the user running the
 * server can open it); on PostgreSQL, or with no server running, the database is read directly. The
 * code is one row in the database, so the server and this command always print the same one.
 */
async function printSetupCode(): Promise<number> {
  const config = loadConfig();
  let code: string | null | undefined;
  if (!config.databaseUrl) {
    code = await requestSetupCode(config.dataDir).catch((error: unknown) => {
      if (error instanceof ControlUnavailableError) return undefined;
      throw error;
    });
  }
  if (code === undefined) {
    const handle = await createDb(dbTargetFromConfig(config));
    try {
      await migrateToLatest(handle.db);
      code = await setupCode(handle.db);
    } finally {
      await handle.close();
    }
  }
  if (code === null) {
    console.log('An account exists already, so there is no setup code: the first account is the owner. Use `npm run user -- list`.');
  } else {
    console.log(`Setup code: ${code}`);
    console.log('Enter it with Create Account at /login on another machine; from the server machine itself no code is needed.');
  }
  return 0;
}

/**
 * reset-link (and the other account commands): run by the server that holds the embedded database,
 * asked over its control socket, or here on the database when no server holds it (or on PostgreSQL).
 * The same code (server/src/areas/auth/commands.ts) runs either way.
 */
async function runAccountCommand(command: string, args: string[]): Promise<number> {
  const config = loadConfig();
  let lines: string[] | undefined;
  if (!config.databaseUrl) {
    lines = await requestAccountCommand(config.dataDir, command, args).catch((error: unknown) => {
      if (error instanceof ControlUnavailableError) return undefined;
      throw new AccountCommandError((error as Error).message);
    });
  }
  if (lines === undefined) {
    const handle = await createDb(dbTargetFromConfig(config));
    try {
      await migrateToLatest(handle.db);
      lines = await accountCommand(createDeps(config, handle.db), command, args);
    } finally {
      await handle.close();
    }
  }
  for (const line of lines) console.log(line);
  return 0;
}

const ACCOUNT_COMMANDS = new Set(['reset-link', 'token']);

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'setup-code') return printSetupCode();
  if (command !== undefined && ACCOUNT_COMMANDS.has(command)) return runAccountCommand(command, rest);
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
      if (users.length === 0) console.log('No accounts yet. The first sign-up becomes the owner (level 3); see `npm run user -- setup-code`.');
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

runMain(main, [AppError, AccountCommandError, ConfigError, DatabaseInUseError], {
  kind: DatabaseInUseError,
  text:
    'While the server runs on the embedded database, change levels on the Admin page (/admin); or stop the server, ' +
    'run this command again, then start the server (`npm start`).',
});
