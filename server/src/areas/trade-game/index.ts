import { defineServerArea } from '../area.ts';
import { tradeGameRouter } from './trade-game.router.ts';

export const tradeGameArea = defineServerArea({ router: tradeGameRouter });
