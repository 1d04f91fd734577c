import { defineServerArea } from '../area.ts';
import { financeRouter } from './finance.router.ts';

export const financeArea = defineServerArea({ router: financeRouter });
