/**
 * Path prefixes the server answers itself, never the app's page: an unknown path under one is a JSON
 * 404 (server/src/http/static.ts), and the service worker never answers a navigation there with the
 * app's shell (client/vite.config.ts).
 */
export const SERVER_PREFIXES = ['/api', '/trpc', '/private', '/healthz', '/assets', '/uploads'] as const;
