import { DatabaseInUseError } from '@site/server/db/database';

type ErrorKind = abstract new (...args: never[]) => Error;

/**
 * Runs a command-line tool's `main` on the command's arguments: its exit code, or 1 after an error.
 * An error of a `known` kind prints its message only (a mistake the user can fix); anything else
 * prints whole (a bug). When the database is held by the running server, `inUseHint` says what to do.
 */
export function runMain(main: (args: string[]) => Promise<number>, known: ErrorKind[], inUseHint?: string): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(known.some((kind) => error instanceof kind) ? (error as Error).message : error);
      if (inUseHint && error instanceof DatabaseInUseError) console.error(inUseHint);
      process.exitCode = 1;
    },
  );
}
