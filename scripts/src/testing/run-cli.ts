import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const tsx = path.resolve(import.meta.dirname, '../../../node_modules/.bin/tsx');

export type CliResult = { code: number; out: string };

/**
 * Runs one of the command-line tools as a person would (a separate process through tsx), with the
 * environment given on top of this one; answers its exit code and everything it printed.
 */
export function cliRunner(cli: string, env: Record<string, string>): (...args: string[]) => Promise<CliResult> {
  return async (...args) => {
    try {
      const { stdout, stderr } = await run(tsx, [cli, ...args], { env: { ...process.env, ...env } });
      return { code: 0, out: stdout + stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: e.stdout + e.stderr };
    }
  };
}
