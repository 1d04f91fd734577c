// contracts-no-cycles: house.rules.ts -> house.schemas.ts -> house.rules.ts.
import type { HouseTask } from './house.schemas.ts';
export const HOUSE_MAX = 10;
export type Task = HouseTask;
