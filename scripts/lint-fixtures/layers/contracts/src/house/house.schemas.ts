import { HOUSE_MAX } from './house.rules.ts';
export type HouseTask = { id: number; max: typeof HOUSE_MAX };
