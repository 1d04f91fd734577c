import type { LevelDef } from '../types.ts';
import { level1 } from './level1.ts';
import { level2 } from './level2.ts';

/** The tower, bottom floor first. Taking the stairs of the last one wins. */
export const LEVELS: readonly LevelDef[] = [level1, level2];

export { level1, level2 };
