import { defineServerArea } from '../area.ts';
import { climbingRouter } from './climbing.router.ts';

export const climbingArea = defineServerArea({ router: climbingRouter });
