import type { picturesRoutes } from '@site/contracts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const picturesSamples = {} satisfies AreaSamples<typeof picturesRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const picturesParity = {} satisfies AreaParity<typeof picturesRoutes>;
