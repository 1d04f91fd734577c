import { defineServerArea } from '../area.ts';
import { picturesHttp } from './pictures.http.ts';
import { picturesMigrations } from './pictures.migrations.ts';
import { picturesRouter } from './pictures.router.ts';
import { startPicturesWorker } from './pictures.worker.ts';

export const picturesArea = defineServerArea({
  router: picturesRouter,
  migrations: picturesMigrations,
  http: picturesHttp,
  worker: startPicturesWorker,
});
