import { mergeRows } from './area.ts';
import { areaRoutes } from './areas.ts';

export { allows } from './area.ts';
export { pages, type PagePath } from './pages.ts';
export type { Access, BrowserRule, HttpRouteKey, HttpRow, PageRow, PortRule, ProcedureAccess } from './area.ts';

/**
 * Who may do what, in one table of three sections, each the spread of every area's rows
 * (contracts/src/<area>/<area>.routes.ts, listed in areas.ts):
 * - procedures: tRPC procedure -> access. The server builds every procedure from this section, so a
 *   procedure missing here cannot be built.
 * - pages: client page -> access and how the hub and navbar list it. The client reads it, from
 *   pages.ts, which holds only the pages (so the app's first script carries no procedure rows).
 * - http: routes that are not tRPC (uploads, media, downloads, the rules mirror) -> access. The server
 *   registers them through one helper that enforces the row, so a route without a row cannot exist.
 */
export const procedures = mergeRows(areaRoutes, 'procedures');
export type ProcedurePath = keyof typeof procedures;

export const httpRoutes = mergeRows(areaRoutes, 'http');
export type HttpRoutePath = keyof typeof httpRoutes;
