import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text the server sends as it is; below MIN_BYTES compression saves less than its headers cost. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest|xml)$/;
const MIN_BYTES = 1024;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.')) yield* filesUnder(full);
    } else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

/**
 * Writes a .br (brotli, highest quality) and a .gz (gzip level 9) beside every text file of the
 * build in `outDir`; the build calls it once every page is written (the prerendered About page too).
 * The server sends them to browsers that accept them (server/src/http/static.ts, preCompressed), so
 * no request pays for compressing.
 */
export async function compressBuild(outDir: string): Promise<void> {
  const jobs: Promise<void>[] = [];
  for await (const file of filesUnder(outDir)) {
    jobs.push(
      (async () => {
        const bytes = await fs.readFile(file);
        if (bytes.length < MIN_BYTES) return;
        const [br, gz] = await Promise.all([
          brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
          gzipAsync(bytes, { level: 9 }),
        ]);
        await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
      })(),
    );
  }
  await Promise.all(jobs);
}
