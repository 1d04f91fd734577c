import { defineServerArea } from '../area.ts';
import { houseMigrations } from './house.migrations.ts';
import { houseRouter } from './house.router.ts';

export const houseArea = defineServerArea({ router: houseRouter, migrations: houseMigrations });
