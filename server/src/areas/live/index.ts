import { router } from '../../trpc/procedures.ts';
import { defineServerArea } from '../area.ts';
import { liveHttp } from './live.http.ts';
import { liveMigrations } from './live.migrations.ts';

/** The live feed: no procedures, one HTTP route (`GET /events`) and the triggers that feed it. */
export const liveArea = defineServerArea({ router: router({}), migrations: liveMigrations, http: liveHttp });
