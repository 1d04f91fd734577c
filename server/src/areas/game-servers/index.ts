import { defineServerArea } from '../area.ts';
import { gameServersMigrations } from './game-servers.migrations.ts';
import { gameServersRouter } from './game-servers.router.ts';

export const gameServersArea = defineServerArea({ router: gameServersRouter, migrations: gameServersMigrations });
