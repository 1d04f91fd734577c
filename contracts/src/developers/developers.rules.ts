/** Where the server serves the OpenAPI document (server/src/areas/developers/openapi.ts). */
export const OPENAPI_PATH = '/api/openapi.json';

/** The OpenAPI extensions the document gives each operation, read by the reference page. */
export const OPENAPI_EXTENSIONS = {
  /** The procedure's minimum level: 'public' or 0-3. */
  level: 'x-min-level',
  /** The port (8443) that also opens the procedure to every member. */
  alsoOnPort: 'x-also-on-port',
  /** True for an account change: a signed-in browser only, never a token. */
  browserOnly: 'x-browser-only',
  /** The token scope a call needs (contracts/src/scopes.ts). */
  scope: 'x-scope',
  /** The tRPC procedure an /api path calls. */
  procedure: 'x-procedure',
  /** 'query' or 'mutation'. */
  kind: 'x-procedure-type',
} as const;
