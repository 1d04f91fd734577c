import { defineServerArea } from '../area.ts';
import { climbingMigrations } from './climbing.migrations.ts';
import { climbingRouter } from './climbing.router.ts';

export const climbingArea = defineServerArea({ router: climbingRouter, migrations: climbingMigrations });
