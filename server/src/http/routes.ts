import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback, FastifyPluginOptions, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { accessMessages, allows, httpRoutes, httpScope, type HttpRow, type HttpRoutePath } from '@site/contracts';
import type { AppDeps } from '../deps.ts';
import { AppError, httpStatus } from '../errors.ts';
import { resolveSession, type RequestSession } from '../identity/request-session.ts';
import { servedPort } from './ports.ts';
import type { SessionUser } from '../identity/session-user.ts';
import { accessRefusal, scopeRefusal } from '../trpc/procedures.ts';

/** What a handler of a route gets: the account (never null unless the row says 'public') and its session. */
export type HttpCaller<K extends HttpRoutePath> = {
  user: (typeof httpRoutes)[K]['access'] extends 'public' ? SessionUser | null : SessionUser;
  session: RequestSession;
};

export type HttpHandler<K extends HttpRoutePath> = (req: FastifyRequest, reply: FastifyReply, caller: HttpCaller<K>) => unknown;

/** How an area registers its routes that are not tRPC (areas/<area>/<area>.http.ts). */
export type HttpRegistrar = {
  route<K extends HttpRoutePath>(key: K, handler: HttpHandler<K>, options?: RouteShorthandOptions): void;
  /**
   * Registers a Fastify plugin (e.g. @fastify/multipart) in the area's own encapsulated scope, so it
   * touches only that area's routes. Await it before calling `route`.
   */
  register<O extends FastifyPluginOptions>(plugin: FastifyPluginAsync<O> | FastifyPluginCallback<O>, options: O): Promise<void>;
};

export class UnlistedRouteError extends Error {}

/**
 * The one way to register a route that is not tRPC. Its row in the permission table (contracts,
 * section `http`) gives the level, enforced here with the same session lookup as tRPC: anonymous
 * callers get 401, accounts below the level 403, before the handler runs. A key without a row is
 * refused (the server does not start), and so is a table row that no area registered. A personal API
 * token with scopes is refused a route outside them (contracts/src/scopes.ts), after the level.
 * Errors: an AppError answers its status and `{ message }`; anything else is a 500 logged once.
 */
export function createHttpRegistrar(
  app: FastifyInstance,
  deps: AppDeps,
  table: Readonly<Record<string, HttpRow>> = httpRoutes,
): HttpRegistrar & { assertAllRegistered(): void; within(scope: FastifyInstance): HttpRegistrar } {
  const registered = new Set<string>();
  const on = (target: FastifyInstance): HttpRegistrar => ({
    async register(plugin, options) {
      await target.register(plugin as FastifyPluginAsync<FastifyPluginOptions>, options);
    },
    route(key, handler, options = {}) {
      const row = Object.hasOwn(table, key) ? table[key] : undefined;
      if (!row) throw new UnlistedRouteError(`HTTP route ${key} has no row in the permission table (contracts, section http)`);
      if (registered.has(key)) throw new UnlistedRouteError(`HTTP route ${key} is registered twice`);
      registered.add(key);
      const [method, url] = splitKey(key);
      const scope = row.anyScope ? undefined : httpScope(key);
      target.route({
        ...options,
        method,
        url,
        handler: async (req, reply) => {
          try {
            const session = await resolveSession(deps.sessions, req, reply);
            const viewer = session.user ? { name: session.user.name, level: session.user.level } : null;
            if (!allows(row, viewer, () => servedPort(req, deps.config))) throw accessRefusal(viewer);
            if (session.scopes !== null && scope !== undefined) {
              const refusal = scopeRefusal(session.scopes, scope);
              if (refusal) throw refusal;
            }
            // What a signed-in caller gets is theirs: not kept by any cache unless the handler says otherwise.
            if (session.user) reply.header('cache-control', 'no-store');
            return await handler(req, reply, { user: session.user as never, session });
          } catch (error) {
            return sendError(req, reply, error);
          }
        },
      });
    },
  });
  return {
    ...on(app),
    within: on,
    assertAllRegistered() {
      const missing = Object.keys(table).filter((key) => !registered.has(key));
      if (missing.length > 0) throw new UnlistedRouteError(`The permission table names HTTP routes no area registers: ${missing.join(', ')}`);
    },
  };
}

export function splitKey(key: string): [method: string, url: string] {
  const space = key.indexOf(' ');
  return [key.slice(0, space), key.slice(space + 1)];
}

/** The URLs whose rows take multipart bodies: the same-site guard lets that content type through there. */
export function multipartUrls(table: Readonly<Record<string, HttpRow>> = httpRoutes): string[] {
  return Object.entries(table)
    .filter(([, row]) => row.multipart === true)
    .map(([key]) => splitKey(key)[1]);
}

/** An error of an HTTP route as the site's usual body: `{ message, preauth? }`. */
export function sendError(req: FastifyRequest, reply: FastifyReply, error: unknown) {
  if (reply.sent || reply.raw.headersSent) {
    req.log.warn({ err: error }, 'error after the response started');
    reply.raw.destroy();
    return reply;
  }
  if (error instanceof AppError) {
    const body: { message: string; preauth?: boolean } = { message: error.message };
    if (error.preauth) body.preauth = true;
    return reply.code(httpStatus[error.code]).type('application/json').send(body);
  }
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return reply.code(status).type('application/json').send({ message: (error as Error).message });
  }
  req.log.error({ err: error }, 'http route failed');
  return reply.code(500).type('application/json').send({ message: accessMessages.internal });
}
