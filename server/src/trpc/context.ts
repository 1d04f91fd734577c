import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Viewer } from '@site/contracts';
import type { SessionUser } from '../areas/auth/sessions.ts';
import type { AppDeps } from '../deps.ts';

export const SESSION_COOKIE = 'sid';

/** How a procedure sets or clears the session cookie without knowing about HTTP. */
export type SessionCookie = { set(token: string): void; clear(): void };

export type Context = {
  deps: AppDeps;
  user: SessionUser | null;
  viewer: Viewer;
  /** Hash of the current session's token, so logout and login can end it. */
  sessionHash: string | null;
  /** Client address, for login throttling. */
  ip: string;
  cookie: SessionCookie;
};

const noCookie: SessionCookie = { set() {}, clear() {} };

/** The context without HTTP: tests and the command line call procedures through this. */
export function createContextInner(
  deps: AppDeps,
  opts: { user?: SessionUser | null; sessionHash?: string | null; ip?: string; cookie?: SessionCookie } = {},
): Context {
  const user = opts.user ?? null;
  return {
    deps,
    user,
    viewer: user ? { name: user.name, level: user.level } : null,
    sessionHash: opts.sessionHash ?? null,
    ip: opts.ip ?? '127.0.0.1',
    cookie: opts.cookie ?? noCookie,
  };
}

export async function createContext(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<Context> {
  const secure = req.protocol === 'https';
  const maxAge = deps.sessions.maxAgeSeconds;
  const cookie: SessionCookie = {
    set: (token) =>
      void reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge }),
    clear: () => void reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure }),
  };
  const token = req.cookies[SESSION_COOKIE];
  if (!token) return createContextInner(deps, { ip: req.ip, cookie });
  const found = await deps.sessions.lookup(token);
  if (!found) {
    cookie.clear();
    return createContextInner(deps, { ip: req.ip, cookie });
  }
  if (found.renewed) cookie.set(token);
  return createContextInner(deps, { user: found.user, sessionHash: found.tokenHash, ip: req.ip, cookie });
}
