import { mergeRows, type Access } from './area.ts';
import { areaRoutes } from './areas.ts';
import type { Viewer } from './levels.ts';

export type { Access, BrowserRule, HttpRouteKey, HttpRow, PageRow, PortRule, ProcedureAccess } from './area.ts';

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

/**
 * True when the viewer meets the rule: an access, or a row (page, procedure or HTTP route) whose
 * `alsoOnPort` opens it to every signed-in member when `port` (the port the request was served on:
 * its connection's, or a trusted proxy's, never the Host header; server/src/http/ports.ts) is that port. Pending accounts (level 0) pass only rules of 0. The port may be
 * given as a function: it is then read only when the rule's level alone does not decide.
 */
export function allows(
  rule: Access | { access: Access; alsoOnPort?: number },
  viewer: Viewer,
  port?: number | (() => number | undefined),
): boolean {
  const access = typeof rule === 'object' ? rule.access : rule;
  if (access === 'public') return true;
  if (viewer === null) return false;
  if (viewer.level >= access) return true;
  if (typeof rule !== 'object' || rule.alsoOnPort === undefined || viewer.level < 1) return false;
  return (typeof port === 'function' ? port() : port) === rule.alsoOnPort;
}
