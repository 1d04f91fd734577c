/**
 * The server side of bench:import (import.ts): the real server on a fresh PGlite, with its control
 * socket answering `npm run pictures -- import`, without the preview worker (the bench times the two
 * doors alone). Its own file so that its bundle (server-process.ts) holds no zip library.
 */
import { buildApp } from '@site/server/app';
import { serverAreas } from '@site/server/areas/index';
import { pictureImporter } from '@site/server/areas/pictures/pictures.import';
import { startControlChannel } from '@site/server/local-commands/control';
import { openBenchSite, serveUntilStdinEnds, answerMemory } from './bench-site.ts';

/** Child process: the real server on a fresh PGlite with its control socket, reporting its RSS peak since the last mark. */
async function serve() {
  const site = await openBenchSite('bench-import-', { MEDIA_MAX_BYTES: String(4 * 1024 ** 3), PEOPLE_INDEXING: 'off' });
  const { worker: _worker, ...picturesWithoutWorker } = serverAreas.pictures;
  const app = await buildApp(site.deps, { areas: { ...serverAreas, pictures: picturesWithoutWorker } });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const importer = pictureImporter(site.deps);
  const channel = await startControlChannel({ picturesImportStart: (as) => importer.start(as), picturesImportFile: (id, meta, bytes, signal) => importer.file(id, meta, bytes, signal) }, site.dir);
  answerMemory({ base, cookie: site.cookie, dir: site.dir });
  serveUntilStdinEnds(site, async () => {
    await channel.close();
    await app.close();
  });
}


await serve();
