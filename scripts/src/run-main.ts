type ErrorKind = abstract new (...args: never[]) => Error;

/**
 * Runs a command-line tool's `main` on the command's arguments: its exit code, or 1 after an error.
 * An error of a `known` kind prints its message only (a mistake the user can fix); anything else
 * prints whole (a bug). An error of `hint.kind` (the database held by the running server) is followed
 * by `hint.text`, what to do. (The kind is passed in so that a tool without a database does not load
 * the database module.)
 */
export function runMain(main: (args: string[]) => Promise<number>, known: ErrorKind[], hint?: { kind: ErrorKind; text: string }): void {
  let settled = false;
  // Node exits 0 when nothing is left to wait for, even if `main` never settled (a stream that
  // stalled): that is a failure, never a success a cron job would report.
  process.once('beforeExit', () => {
    if (settled) return;
    console.error('The command stopped before it finished (nothing was left to wait for): this is a bug; nothing was completed');
    process.exitCode = 1;
  });
  // Once the command has finished, nothing may keep the process: a closed PGlite can leave its
  // WebAssembly Postgres's interval timer behind (a second restore on a folder it made stayed open
  // after printing its error). Output to files and pipes is written synchronously, so it is all out.
  const end = () => setTimeout(() => process.exit(), 1000).unref();
  main(process.argv.slice(2)).then(
    (code) => {
      settled = true;
      process.exitCode = code;
      end();
    },
    (error: unknown) => {
      settled = true;
      console.error(known.some((kind) => error instanceof kind) ? (error as Error).message : error);
      if (hint && error instanceof hint.kind) console.error(hint.text);
      process.exitCode = 1;
      end();
    },
  );
}
