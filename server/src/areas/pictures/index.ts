import { defineServerArea } from '../area.ts';
import { picturesHttp } from './pictures.http.ts';
import { picturesMigrations, redoAfterRestore } from './pictures.migrations.ts';
import { picturesRouter } from './pictures.router.ts';
import { startPicturesWorker } from './pictures.worker.ts';

export const picturesArea = defineServerArea({
  router: picturesRouter,
  migrations: picturesMigrations,
  http: picturesHttp,
  worker: startPicturesWorker,
  // An archive from before some of the area's data migrations gets what they did (each once).
  afterRestore: async (trx, archived) => {
    const steps = new Set(Object.entries(redoAfterRestore).filter(([name]) => !archived.includes(name)).map(([, step]) => step));
    for (const step of steps) await step(trx);
  },
});
