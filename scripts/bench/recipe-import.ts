/**
 * `npm run bench:recipe-import` (issue 33): one many-at-once recipe import of BENCH_FILES (9) files of
 * BENCH_FILE_MB (5.4) MB each (over the 5 MB a recipe may be, so each is refused: what is measured is
 * the upload, not the database), sent over a real socket from a file on disk (the client holds
 * nothing), to the app in this process on the embedded database. Prints the request's size, the
 * server's RSS growth at its peak during the request and what it still holds after (a GC later).
 * Asserts nothing.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { buildApp } from '@site/server/app';
import { openBenchSite } from './bench-site.ts';

const FILES = Number(process.env.BENCH_FILES ?? 9);
const FILE_MB = Number(process.env.BENCH_FILE_MB ?? 5.4);
const MB = 1024 * 1024;
const boundary = '----bench-recipe-import';

/** The multipart body, written to disk part by part. */
function writeBody(file: string): number {
  const fd = fs.openSync(file, 'w');
  const steps = 'Stir. '.repeat(Math.floor((FILE_MB * MB) / 6));
  for (let i = 0; i < FILES; i++) {
    fs.writeSync(fd, `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="r${i}.jsonld"\r\nContent-Type: application/ld+json\r\n\r\n`);
    fs.writeSync(fd, JSON.stringify({ '@context': 'https://schema.org', '@type': 'Recipe', name: `Recipe ${i}`, recipeIngredient: ['1 egg'], recipeInstructions: steps }));
    fs.writeSync(fd, '\r\n');
  }
  fs.writeSync(fd, `--${boundary}--\r\n`);
  fs.closeSync(fd);
  return fs.statSync(file).size;
}

const site = await openBenchSite('bench-recipe-import-');
const app = await buildApp(site.deps);
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const bodyFile = path.join(site.dir, 'body.multipart');
const size = writeBody(bodyFile);
try {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(`${base}/private/recipes/import`, {
      method: 'POST',
      agent: false,
      headers: { cookie: site.cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': size, origin: base },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    fs.createReadStream(bodyFile).pipe(req);
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await new Promise((resolve) => setTimeout(resolve, 500));
  global.gc?.();
  const after = process.memoryUsage().rss;
  const report = (JSON.parse(answer.body) as { report?: { ok: boolean }[]; message?: string }).report;
  console.log(
    `recipe import of ${FILES} files, ${Math.round(size / MB)} MB in all: HTTP ${answer.status}, ${report?.filter((r) => r.ok).length ?? 0} imported, ${report?.filter((r) => !r.ok).length ?? 0} refused in ${seconds.toFixed(1)} s; ` +
      `server RSS +${Math.round((peak - before) / MB)} MB at its peak, +${Math.round((after - before) / MB)} MB after`,
  );
} finally {
  await app.close();
  await site.close();
}
