import { mergeRows } from './area.ts';
import { areaRoutes } from './areas.ts';

export type { Conversion, FieldMap, FieldSource, LegacyRoute } from './area.ts';

/**
 * The documented /api/* paths, each mapped onto one procedure: the spread of every area's `api` rows.
 * The server's compatibility plugin is driven entirely by this table (see LegacyRoute in area.ts).
 */
export const legacyApi = mergeRows(areaRoutes, 'api');

export type LegacyPath = keyof typeof legacyApi;

/** The error body of every /api path. */
export type LegacyErrorBody = { message: string; preauth?: boolean };
