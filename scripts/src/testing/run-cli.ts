import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { cliCommand, copyMigratedDataDir } from '@site/server/testing/cli-fixtures';

const run = promisify(execFile);

export type CliResult = { code: number; out: string };

/** The program and arguments that run the command-line tool `cli` (its source file) with `args`: its bundle made for this run. */
export function cliProcess(cli: string, args: string[]): { file: string; args: string[] } {
  return cliCommand(cli, args, inject('cliBundles'));
}

/**
 * Runs one of the command-line tools as a person would (a separate process: the tool's bundle made
 * once for this run, see server/src/testing/cli-fixtures.ts), with the environment given on top of
 * this one; answers its exit code and everything it printed.
 */
export function cliRunner(cli: string, env: Record<string, string>): (...args: string[]) => Promise<CliResult> {
  return async (...args) => {
    const command = cliProcess(cli, args);
    try {
      const { stdout, stderr } = await run(command.file, command.args, { env: { ...process.env, ...env } });
      return { code: 0, out: stdout + stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: e.stdout + e.stderr };
    }
  };
}

/** A new DATA_DIR (under the system's temporary folder, named `prefix`...) whose embedded database is created and migrated, as after the site's first start. */
export function migratedDataDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  copyMigratedDataDir(inject('migratedDataDir'), dir);
  return dir;
}
