import { defineServerArea } from '../area.ts';
import { tradeGameMigrations } from './trade-game.migrations.ts';
import { tradeGameRouter } from './trade-game.router.ts';

export const tradeGameArea = defineServerArea({ router: tradeGameRouter, migrations: tradeGameMigrations });
