import { defineServerArea } from '../area.ts';
import { registerFinanceHttp } from './finance.http.ts';
import { financeMigrations } from './finance.migrations.ts';
import { financeRouter } from './finance.router.ts';

export const financeArea = defineServerArea({ router: financeRouter, migrations: financeMigrations, http: registerFinanceHttp });
