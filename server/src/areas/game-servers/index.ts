import { defineServerArea } from '../area.ts';
import { gameServersRouter } from './game-servers.router.ts';

export const gameServersArea = defineServerArea({ router: gameServersRouter });
