import type { FloorDef } from '../types.ts';
import { floor1 } from './floor1.ts';
import { floor2 } from './floor2.ts';

/** The tower, bottom floor first. Taking the stairs of the last one wins. */
export const FLOORS: readonly FloorDef[] = [floor1, floor2];

export { floor1, floor2 };
