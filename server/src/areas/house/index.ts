import { defineServerArea } from '../area.ts';
import { houseRouter } from './house.router.ts';

export const houseArea = defineServerArea({ router: houseRouter });
