/**
 * The server side of bench:import (import.ts): the real server on a fresh PGlite, with its control
 * socket answering `npm run pictures -- import`, without the preview worker (the bench times the two
 * doors alone). Its own file so that its bundle (server-process.ts) holds no zip library.
 */
import { buildApp } from '@site/server/app';
import { serverAreas } from '@site/server/areas/index';
import { pictureImporter } from '@site/server/areas/pictures/pictures.import';
import { startControlChannel } from '@site/server/local-commands/control';
import { openBenchSite, serveUntilStdinEnds } from './bench-site.ts';

/** Child process: the real server on a fresh PGlite with its control socket, reporting its RSS peak since the last mark. */
async function serve() {
  const site = await openBenchSite('bench-import-', { MEDIA_MAX_BYTES: String(4 * 1024 ** 3), PEOPLE_INDEXING: 'off' });
  const { worker: _worker, ...picturesWithoutWorker } = serverAreas.pictures;
  const app = await buildApp(site.deps, { areas: { ...serverAreas, pictures: picturesWithoutWorker } });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const importer = pictureImporter(site.deps);
  const channel = await startControlChannel({ picturesImportStart: (as) => importer.start(as), picturesImportFile: (id, meta, bytes, signal) => importer.file(id, meta, bytes, signal) }, site.dir);
  let peak = process.memoryUsage().rss;
  setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20).unref();
  process.stdout.write(`${JSON.stringify({ base, cookie: site.cookie, dir: site.dir })}\n`);
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (line: string) => {
    if (line.startsWith('mark')) {
      global.gc?.();
      peak = process.memoryUsage().rss;
      process.stdout.write(`${JSON.stringify({ rss: peak })}\n`);
    } else if (line.startsWith('peak')) {
      process.stdout.write(`${JSON.stringify({ rss: Math.max(peak, process.memoryUsage().rss) })}\n`);
    }
  });
  serveUntilStdinEnds(site, async () => {
    await channel.close();
    await app.close();
  });
}


await serve();
