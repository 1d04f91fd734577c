import type { fivetoolsRoutes } from '@site/contracts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const fivetoolsSamples = {
  'fivetools.status': undefined,
} satisfies AreaSamples<typeof fivetoolsRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const fivetoolsParity = {} satisfies AreaParity<typeof fivetoolsRoutes>;
