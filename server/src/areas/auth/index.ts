import { defineServerArea } from '../area.ts';
import { authMigrations } from './auth.migrations.ts';
import { authRouter } from './auth.router.ts';

export const authArea = defineServerArea({ router: authRouter, migrations: authMigrations });
