import { router } from '../../trpc/procedures.ts';
import { defineServerArea } from '../area.ts';
import { developersHttp } from './developers.http.ts';

/** The developers' door: no procedures of its own, the OpenAPI document of everyone else's. */
export const developersArea = defineServerArea({ router: router({}), http: developersHttp });
