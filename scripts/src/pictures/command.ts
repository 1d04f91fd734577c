import path from 'node:path';
import { loadConfig } from '@site/server/config';
import { openImportTransport } from '@site/server/areas/pictures/pictures.import.cli';
import { runImport, summaryLines } from './import.ts';

export const usage = `Usage:
  npm run pictures -- import PATH... [--as NAME] [--albums-from-folders] [--report FILE]

PATH: the zip files of a Google Photos Takeout (give every part at once: a photo's sidecar is often
in another part), an unpacked takeout folder, or any folder of photos and videos (read recursively).
Each file goes through the same pipeline as an upload (type from its bytes, size limit, dedupe by
content, approval, previews). From a takeout's sidecars: the date when the file has none of its own,
the place when it holds no GPS, the description as caption, favourites as hearts; trashed files are
left out; album folders become albums. A plain folder's subfolders become albums only with
--albums-from-folders.
  --as NAME       the member the pictures belong to (default: the owner)
  --report FILE   where the list of skipped files goes (default: pictures-import-<date>.txt here)
Works while the server runs (on the embedded database through DATA_DIR/control.sock). Stopped or
killed, the same command goes on where it stopped; run again when finished, it adds nothing.
See docs/pictures.md, "Moving from Google Photos".`;

/** `npm run pictures -- ...`: its exit code. */
export async function picturesCommand(argv: string[], env: NodeJS.ProcessEnv = process.env, print: (line: string) => void = console.log): Promise<number> {
  const [command, ...rest] = argv;
  const paths: string[] = [];
  let as: string | null = null;
  let report: string | null = null;
  let albumsFromFolders = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? '';
    if (arg === '--as' && rest[i + 1] !== undefined) as = rest[++i] ?? null;
    else if (arg === '--report' && rest[i + 1] !== undefined) report = rest[++i] ?? null;
    else if (arg === '--albums-from-folders') albumsFromFolders = true;
    else if (arg.startsWith('-')) return bad();
    else paths.push(arg);
  }
  if (command !== 'import' || paths.length === 0) return bad();
  const here = env.INIT_CWD ?? process.cwd();
  const config = loadConfig(env);
  const stamp = new Date().toISOString().replace(/[:T]/g, '-').slice(0, 19);
  const reportFile = path.resolve(here, report ?? `pictures-import-${stamp}.txt`);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const transport = await openImportTransport(config);
  try {
    const summary = await runImport(transport, {
      paths: paths.map((p) => path.resolve(here, p)),
      as,
      albumsFromFolders,
      report: reportFile,
      dataDir: config.dataDir,
      print,
      tty: process.stdout.isTTY ? process.stdout : null,
      signal: stop.signal,
    });
    for (const line of summaryLines(summary, reportFile)) print(line);
    return summary.stopped ? 130 : 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await transport.close();
  }
}

function bad(): number {
  console.error(usage);
  return 2;
}
