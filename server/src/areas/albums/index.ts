import { defineServerArea } from '../area.ts';
import { albumsMigrations } from './albums.migrations.ts';
import { albumsRouter } from './albums.router.ts';
import { sharesHttp } from './shares.http.ts';
import { sharesRouter } from './shares.router.ts';

/** Albums (`albums.*`) and their guest links (`shares.*`): two routers, one folder, one set of tables. */
export const albumsArea = defineServerArea({
  router: albumsRouter,
  migrations: albumsMigrations,
});

export const sharesArea = defineServerArea({
  router: sharesRouter,
  http: sharesHttp,
});
