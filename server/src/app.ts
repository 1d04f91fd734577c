import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import { accessMessages } from '@site/contracts';
import { serverAreas } from './areas/index.ts';
import type { ServerArea } from './areas/area.ts';
import type { Config } from './config.ts';
import { deleteExpiredSessions } from './identity/sessions.repository.ts';
import { sweepResetLinks } from './areas/auth/reset-links.ts';
import { sweepPasskeyChallenges } from './areas/auth/passkeys.ts';
import { createHttpRegistrar } from './http/routes.ts';
import { closeExtraListeners, configTrust } from './http/ports.ts';
import { pingDb } from './db/database.ts';
import type { AppDeps } from './deps.ts';
import { hostGuard } from './http/hosts.ts';
import { sameSiteGuard } from './http/same-site.ts';
import { registerClient } from './http/static.ts';
import { mountLegacyApi } from './legacy/legacy.plugin.ts';
import { mountTrpc } from './trpc/http.ts';
// The root router, handed to trpc/ (which knows no area) as it loads.
import './router.ts';

export type { AppDeps } from './deps.ts';
export { createDeps } from './deps.ts';

/** Headers and body fields that must never reach a log line. */
const REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.confirmPassword',
  '*.loginPass',
  '*.signupPass',
  '*.signupConfPass',
  '*.token',
];

/** Builds the whole server without listening (tests use inject, index.ts listens). */
/**
 * Each area checks what its settings name (the dev dashboard its commands file): a bad setting stops
 * the start with a ConfigError, before the database is opened when index.ts calls it first.
 */
export function checkAreasConfig(config: Config, areas: readonly ServerArea[] = Object.values(serverAreas)): void {
  for (const area of areas) area.checkConfig?.(config);
}

export async function buildApp(
  deps: AppDeps,
  opts: {
    logger?: Exclude<FastifyServerOptions['logger'], boolean>;
    /** The areas whose HTTP routes and workers to start (tests add one to prove the table's rule). */
    areas?: Readonly<Record<string, ServerArea>>;
  } = {},
): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: opts.logger
      ? { ...opts.logger, redact: REDACT }
      : config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, redact: REDACT },
    // Access logs would write two lines per request; errors are logged where they happen.
    logController: new LogController({ disableRequestLogging: true }),
    // Fastify takes a hop count as a function of the hop (its number form is not in its types).
    trustProxy: typeof config.trustProxy === 'boolean' ? config.trustProxy : configTrust(config),
    bodyLimit: config.bodyLimit,
    // A client has this long to send a whole request (headers and body); a socket that stays silent
    // for the idle time is closed; Node checks both every second instead of every 30 s.
    requestTimeout: config.timeouts.requestMs,
    connectionTimeout: config.timeouts.idleMs,
    http: {
      headersTimeout: Math.min(config.timeouts.idleMs, config.timeouts.requestMs),
      connectionsCheckingInterval: 1000,
    },
    // On close, requests in flight finish; idle keep-alive connections are closed at once.
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 2000 },
  });

  // tRPC clients send `content-type: application/json` with no body for mutations without input.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    json(req, text, done);
  });

  app.setErrorHandler((error: { statusCode?: number; message?: string }, req, reply) => {
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) req.log.error({ err: error }, 'request failed');
    return reply.code(status).send({ message: status >= 500 ? accessMessages.internal : (error.message ?? 'Bad request') });
  });

  // No per-request hooks: the session cookie is read and written by the tRPC context only.
  await app.register(fastifyCookie, { hook: false });
  const securityHeaders = await helmetHeaders();
  // One synchronous hook for every response: the fixed security headers, then the same-site guard
  // (state-changing methods only). The headers go into Fastify's reply headers, which every reply
  // (errors and not-found included) writes with one writeHead; Node validates them there once.
  const sameSite = sameSiteGuard();
  const hosts = hostGuard(config.publicHosts);
  app.addHook('onRequest', (req, reply, done) => {
    for (let i = 0; i < securityHeaders.length; i += 2) reply.header(securityHeaders[i] as string, securityHeaders[i + 1]);
    // HSTS only means something over https, and over plain http it would pin a name to https.
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    if (!hosts(req, reply)) return;
    sameSite(req, reply, done);
  });

  app.get('/healthz', async (_req, reply) => {
    const ok = await pingDb(deps.db);
    return reply.code(ok ? 200 : 503).send(ok ? { ok: true } : { ok: false, message: 'The database does not answer' });
  });

  // Expired sessions and attempt counters are refused on sight; this only keeps the tables small.
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () =>
    void Promise.all([deleteExpiredSessions(deps.db, new Date()), deps.limits.sweep(), deps.devices.sweep(), sweepResetLinks(deps), sweepPasskeyChallenges(deps)]).catch((err: unknown) =>
      app.log.warn({ err }, 'sweep failed'),
    );
  app.addHook('onReady', async () => {
    sweeper = setInterval(sweep, 60 * 60 * 1000).unref();
  });
  app.addHook('onClose', async () => clearInterval(sweeper));
  // EXTRA_PORT's listener (http/ports.ts) stops with the main one; its requests in flight finish first.
  let extraClosed: Promise<void> = Promise.resolve();
  app.addHook('preClose', async () => void (extraClosed = closeExtraListeners(app)));
  app.addHook('onClose', () => extraClosed);
  // The live streams (GET /events) never end by themselves: end them so the server can close.
  app.addHook('preClose', async () => deps.changes.closeAll());

  mountTrpc(app, deps);
  mountLegacyApi(app, deps);
  const areas = Object.values(opts.areas ?? serverAreas);
  checkAreasConfig(deps.config, areas);
  const routes = createHttpRegistrar(app, deps);
  // Each area's routes in a scope of its own, so a plugin one area registers (multipart) stays there.
  for (const area of areas) {
    const http = area.http;
    if (http) await app.register(async (scope) => http(routes.within(scope), deps));
  }
  routes.assertAllRegistered();
  const workers: { stop(): Promise<void> | void }[] = [];
  app.addHook('onReady', async () => {
    for (const area of areas) if (area.worker) workers.push(area.worker(deps));
  });
  app.addHook('onClose', async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  });
  await registerClient(app, config.clientDist);
  return app;
}

const HSTS = 'max-age=31536000; includeSubDomains';

const HELMET: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      frameSrc: ["'self'", 'https://www.youtube-nocookie.com'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'self'"],
    },
  },
  // The 5etools mirror and media open in new tabs; a strict opener policy buys nothing here.
  crossOriginEmbedderPolicy: false,
  // Sent per request, over https only (see the onRequest hook).
  strictTransportSecurity: false,
};

/**
 * The headers helmet writes for HELMET, as [name, value, name, value, ...]. They are the same for
 * every response (no nonces), so they are read once from a throwaway instance: @fastify/helmet in
 * the app itself would add two hooks and rebuild helmet's middleware on every request.
 */
async function helmetHeaders(): Promise<string[]> {
  const probe = Fastify();
  probe.get('/', (_req, reply) => reply.send(''));
  await probe.register(async (scope) => {
    await scope.register(fastifyHelmet, HELMET);
    scope.get('/helmet', (_req, reply) => reply.send(''));
  });
  const plain = await probe.inject({ method: 'GET', url: '/' });
  const helmeted = await probe.inject({ method: 'GET', url: '/helmet' });
  await probe.close();
  return Object.entries(helmeted.headers).flatMap(([name, value]) =>
    name in plain.headers || value === undefined ? [] : [name, Array.isArray(value) ? value.join(', ') : String(value)],
  );
}
