type ErrorKind = abstract new (...args: never[]) => Error;

/**
 * Runs a command-line tool's `main` on the command's arguments: its exit code, or 1 after an error.
 * An error of a `known` kind prints its message only (a mistake the user can fix); anything else
 * prints whole (a bug). An error of `hint.kind` (the database held by the running server) is followed
 * by `hint.text`, what to do. (The kind is passed in so that a tool without a database does not load
 * the database module.)
 */
export function runMain(main: (args: string[]) => Promise<number>, known: ErrorKind[], hint?: { kind: ErrorKind; text: string }): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(known.some((kind) => error instanceof kind) ? (error as Error).message : error);
      if (hint && error instanceof hint.kind) console.error(hint.text);
      process.exitCode = 1;
    },
  );
}
