import { areaRoutes } from './areas.ts';
import { needsBrowser, type HttpRouteKey } from './area.ts';
import { procedures } from './permissions.ts';

/**
 * Scopes of personal API tokens. A token carries either every right of its member (no scopes: the
 * default, and every token made before scopes existed) or a list of scopes:
 * - `<area>:read`: the area's queries (tRPC `GET /trpc/<area>.<verb>`) and its GET/HEAD HTTP routes;
 * - `<area>:write`: the area's mutations and its other HTTP routes;
 * - `*:read` ("Read only"): every area's queries and GET routes, areas added later included.
 * The area is the first part of a procedure's name (`todo` for `todo.add`). The procedure gate
 * (server/src/trpc/procedures.ts) and the HTTP routes' gate (server/src/http/routes.ts) check them,
 * after the level: a scope never lets a token past its member's level.
 */
export type ScopeAccess = 'read' | 'write';
export type TokenScope = `${string}:${ScopeAccess}`;

/** The scope of every area's reads: the account page's "Read only". */
export const READ_ONLY_SCOPE = '*:read';

export const scopeMessages = {
  /** A call outside a token's scopes (403). */
  missing: (scope: string) => `This API token's scopes do not include ${scope}`,
  /** A route of no area (the live feed): only a token with every right passes. */
  everything: 'Only an API token with every right (no scopes) may call this',
  unknown: 'Name scopes as area:read or area:write (for example todo:read), or *:read for read only',
  duplicate: 'A scope is named twice',
  none: 'Choose at least one scope, or Everything',
};

/** The area of a procedure: the first part of its name. */
export const areaOfProcedure = (path: string): string => path.slice(0, path.indexOf('.'));

/** The scope a call of the procedure needs: queries read, mutations write. */
export const procedureScope = (path: string, type: 'query' | 'mutation' | 'subscription'): TokenScope =>
  `${areaOfProcedure(path)}:${type === 'query' ? 'read' : 'write'}`;

/**
 * The area of each HTTP route that is not tRPC: the area (a line of areas.ts) that declares it, named
 * by its procedures' first part. A route of an area without procedures (the live feed) has none.
 */
const httpAreas: ReadonlyMap<string, string | null> = new Map(
  areaRoutes.flatMap((area) => {
    const first = Object.keys(area.procedures)[0];
    return Object.keys(area.http).map((key) => [key, first === undefined ? null : areaOfProcedure(first)] as const);
  }),
);

/** The scope a call of the HTTP route needs (GET and HEAD read, the others write), or null for a route of no area. */
export function httpScope(key: HttpRouteKey | string): TokenScope | null {
  const area = httpAreas.get(key);
  if (!area) return null;
  return `${area}:${/^(GET|HEAD) /.test(key) ? 'read' : 'write'}`;
}

/** The areas a token may be scoped to: every area with a call a token may make, in the table's order. */
export const scopeAreas: readonly string[] = [
  ...new Set([
    ...Object.entries(procedures)
      .filter(([, rule]) => !needsBrowser(rule))
      .map(([path]) => areaOfProcedure(path)),
    ...[...httpAreas.values()].filter((area) => area !== null),
  ]),
];

const knownScopes = new Set<string>([READ_ONLY_SCOPE, ...scopeAreas.flatMap((area) => [`${area}:read`, `${area}:write`])]);

/** True for a scope a token may carry. */
export const isTokenScope = (scope: string): scope is TokenScope => knownScopes.has(scope);

/**
 * True when a token with these scopes may make a call that needs `needed`. `null` scopes are every
 * right (a session cookie, or a token without scopes); a `needed` of null is a route of no area.
 */
export function scopesAllow(scopes: readonly string[] | null, needed: string | null): boolean {
  if (scopes === null) return true;
  if (needed === null) return false;
  return scopes.includes(needed) || (needed.endsWith(':read') && scopes.includes(READ_ONLY_SCOPE));
}

/** A token's scopes in words, for the token list: "Everything", "Read only", or the scopes. */
export function describeScopes(scopes: readonly string[] | null): string {
  if (scopes === null) return 'Everything';
  if (scopes.length === 1 && scopes[0] === READ_ONLY_SCOPE) return 'Read only';
  return scopes.join(' ');
}
