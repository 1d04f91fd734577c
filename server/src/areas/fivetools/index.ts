import { defineServerArea } from '../area.ts';
import { fivetoolsRouter } from './fivetools.router.ts';

export const fivetoolsArea = defineServerArea({ router: fivetoolsRouter });
