import { defineServerArea } from '../area.ts';
import { towerDailyMigrations } from './tower-daily.migrations.ts';
import { towerDailyRouter } from './tower-daily.router.ts';

export const towerDailyArea = defineServerArea({ router: towerDailyRouter, migrations: towerDailyMigrations });
