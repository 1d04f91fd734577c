import type { ytdlRoutes } from '@site/contracts';
import type { AreaParity, AreaSamples } from '../area-tables.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const ytdlSamples = {} satisfies AreaSamples<typeof ytdlRoutes>;

/** One check per documented /api path: the documented field names in, the documented field names out. */
export const ytdlParity = {} satisfies AreaParity<typeof ytdlRoutes>;
