import type { climbingRoutes } from '@site/contracts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const climbingSamples = {} satisfies AreaSamples<typeof climbingRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const climbingParity = {} satisfies AreaParity<typeof climbingRoutes>;
