import type { Level, Viewer } from './levels.ts';

/**
 * The shape of one area's rows in the site's tables. Each area (contracts/src/<area>/) declares its
 * own rows with `defineArea`; permissions.ts and legacy-api.ts spread every area's rows into the one
 * table the server enforces and the client reads.
 */

/** `public` means anyone, signed in or not; a number is the minimum level of a signed-in account. */
export type Access = 'public' | Level;

/**
 * A rule that also opens to every signed-in member (level 1 and up) when the page is served on port
 * `alsoOnPort` (8443): pages, the procedures those pages call and the routes they fetch use the same
 * form, so a page listed on that port also works there.
 */
export type PortRule = { access: Level; alsoOnPort: number };

/**
 * A rule for a change to an account (a password, a reset link, a level, a token, a passkey, a
 * session): it needs the member's own signed-in browser, a session cookie. A personal API token of
 * any level is refused it (403 `accessMessages.browserOnly`), so a leaked token can never lead to a
 * password. The procedure gate enforces it from this flag (server/src/trpc/procedures.ts).
 */
export type BrowserRule = { access: Level; browser: true; /** No port opens an account change to others. */ alsoOnPort?: never };

/** A procedure's rule: an access, the same with a port that opens it (`PortRule`), or one a token never passes (`BrowserRule`). */
export type ProcedureAccess = Access | PortRule | BrowserRule;

/** True for a rule only a signed-in browser passes (`BrowserRule`). */
export const needsBrowser = (rule: ProcedureAccess): rule is BrowserRule => typeof rule === 'object' && 'browser' in rule && rule.browser;

/** A page of the client: who may open it and how the hub and navbar list it. The key is its href. */
export type PageRow = {
  access: Access;
  /** Opened to every signed-in member when the site is served on this port (8443). */
  alsoOnPort?: number;
  label: string;
  /** The navbar's wording when it differs from the hub's. */
  navLabel?: string;
  /** Hub section and navbar dropdown the link belongs to. */
  group?: 'cool' | 'admin';
  /** Hub and navbar list the link from this level even where the page itself is more open. */
  listedFrom?: Level;
  /** Shown to everyone: the pending page is where a refused login lands, signed in or not. */
  ungated?: boolean;
  /** The router pattern when the page has sub-paths (`/personal/pictures/*`). */
  pattern?: string;
};

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** A route that is not tRPC, keyed `METHOD /path` with Fastify's `:param` and `*` syntax. */
export type HttpRouteKey = `${HttpMethod} /${string}`;
export type HttpRow = {
  access: Access;
  /** Opened to every signed-in member when the page is served on this port (8443), as for pages. */
  alsoOnPort?: number;
  /** Takes a multipart/form-data body: the same-site guard lets that content type through here only. */
  multipart?: boolean;
  /** Answers with a stream that stays open (Server-Sent Events): tests read its start, then hang up. */
  stream?: boolean;
  /** Open to a personal API token whatever its scopes (the OpenAPI document that lists them). */
  anyScope?: true;
};

/**
 * A documented /api/* path mapped onto one procedure: the compatibility plugin renames fields in and
 * out and converts their wire types, nothing else. Every rule lives in the procedure.
 *
 * `input`: procedure input field <- legacy payload field. Payload fields not named here are ignored.
 *   Without `input` the procedure is called with no input.
 * `output`: legacy response field <- procedure output field. Applied to each element when the
 *   procedure returns an array. Without `output` the procedure's result is sent as it is.
 * Conversions: `int` accepts a number or a string of digits, `boolean` accepts true/false or
 * 'true'/'false', `text` writes a value as a string (booleans become 'true'/'false').
 * Anything that does not convert is passed on unchanged, so the procedure's validation answers it.
 */
export type Conversion = 'int' | 'boolean' | 'text';
export type FieldSource = string | { field: string; as: Conversion };
export type FieldMap = Readonly<Record<string, FieldSource>>;
export type LegacyRoute<P extends string = string> = { procedure: P; input?: FieldMap; output?: FieldMap };

export type AreaRows<
  P extends Record<string, ProcedureAccess> = Record<string, ProcedureAccess>,
  G extends Record<string, PageRow> = Record<string, PageRow>,
  H extends Record<HttpRouteKey, HttpRow> = Record<HttpRouteKey, HttpRow>,
  A extends Record<string, LegacyRoute> = Record<string, LegacyRoute>,
> = { procedures: P; pages: G; http: H; api: A };

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an area without rows of a kind
type None = {};

/**
 * One area's rows. Procedures are named `<area>.<verb>` (the area's tRPC router key), pages by their
 * href, HTTP routes by `METHOD /path`, /api paths by their path; an /api path may only name a
 * procedure of its own area.
 */
export function defineArea<
  const P extends Record<string, ProcedureAccess> = None,
  const G extends Record<string, PageRow> = None,
  const H extends Record<HttpRouteKey, HttpRow> = None,
  const A extends Record<string, LegacyRoute<Extract<keyof P, string>>> = None,
>(rows: { procedures?: P; pages?: G; http?: H; api?: A }): AreaRows<P, G, H, A> {
  return {
    procedures: rows.procedures ?? ({} as P),
    pages: rows.pages ?? ({} as G),
    http: rows.http ?? ({} as H),
    api: rows.api ?? ({} as A),
  };
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** One section of every area's rows, as one typed record (the intersection of the areas' records). */
export type Merged<Areas extends readonly AreaRows[], K extends keyof AreaRows> = UnionToIntersection<Areas[number][K]>;

/** The run-time side of `Merged`: a key declared by two areas is a mistake, found when contracts load. */
export function mergeRows<Areas extends readonly AreaRows[], K extends keyof AreaRows>(areas: Areas, section: K): Merged<Areas, K> {
  return mergeRecords(areas.map((area) => area[section])) as Merged<Areas, K>;
}

/** Records as one (the intersection of their types), in their order; a key in two of them throws. */
export function mergeRecords<Records extends readonly object[]>(records: Records): UnionToIntersection<Records[number]> {
  const merged: Record<string, unknown> = {};
  for (const record of records) {
    for (const [key, row] of Object.entries(record)) {
      if (Object.hasOwn(merged, key)) throw new Error(`${key} is declared by two areas`);
      merged[key] = row;
    }
  }
  return merged as UnionToIntersection<Records[number]>;
}

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
