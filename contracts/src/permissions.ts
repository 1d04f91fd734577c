import { mergeRows, type Access, type PageRow } from './area.ts';
import { areaRoutes } from './areas.ts';
import type { Viewer } from './levels.ts';

export type { Access, HttpRouteKey, HttpRow, PageRow } from './area.ts';

/**
 * Who may do what, in one table of three sections, each the spread of every area's rows
 * (contracts/src/<area>/<area>.routes.ts, listed in areas.ts):
 * - procedures: tRPC procedure -> access. The server builds every procedure from this section, so a
 *   procedure missing here cannot be built.
 * - pages: client page -> access and how the hub and navbar list it. The client reads it.
 * - http: routes that are not tRPC (uploads, media, downloads, the rules mirror) -> access. The server
 *   registers them through one helper that enforces the row, so a route without a row cannot exist.
 */
export const procedures = mergeRows(areaRoutes, 'procedures');
export type ProcedurePath = keyof typeof procedures;

export const pages = mergeRows(areaRoutes, 'pages');
export type PagePath = keyof typeof pages;

export const httpRoutes = mergeRows(areaRoutes, 'http');
export type HttpRoutePath = keyof typeof httpRoutes;

/** True when the viewer meets the access rule. Pending accounts (level 0) pass only rules of 0. */
export function allows(access: Access, viewer: Viewer): boolean {
  if (access === 'public') return true;
  return viewer !== null && viewer.level >= access;
}

export function allowsPage(page: Pick<PageRow, 'access' | 'alsoOnPort'>, viewer: Viewer, port?: number): boolean {
  if (allows(page.access, viewer)) return true;
  return page.alsoOnPort !== undefined && port === page.alsoOnPort && viewer !== null && viewer.level >= 1;
}
