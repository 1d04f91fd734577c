/** What other areas may use of the game servers area: notifications lists them for the daily digest. */
export { list } from './game-servers.service.ts';
