import { defineServerArea } from '../area.ts';
import { ytdlHttp } from './ytdl.http.ts';
import { ytdlRouter } from './ytdl.router.ts';
import { stopYtdlService } from './ytdl.service.ts';

export const ytdlArea = defineServerArea({
  router: ytdlRouter,
  http: ytdlHttp,
  worker: (deps) => ({ stop: () => stopYtdlService(deps) }),
});
