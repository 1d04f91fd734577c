import { defineServerArea } from '../area.ts';
import { fivetoolsHttp } from './fivetools.http.ts';
import { fivetoolsRouter } from './fivetools.router.ts';

export const fivetoolsArea = defineServerArea({ router: fivetoolsRouter, http: fivetoolsHttp });
