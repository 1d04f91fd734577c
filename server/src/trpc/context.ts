import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Viewer } from '@site/contracts';
import type { AppDeps } from '../deps.ts';
import { noCookie, noDevice, resolveSession, type DeviceCookie, type SessionCookie } from '../identity/request-session.ts';
import type { SessionUser } from '../identity/session-user.ts';

export type Context = {
  deps: AppDeps;
  user: SessionUser | null;
  viewer: Viewer;
  /** Hash of the current session's token, so logout and login can end it. */
  sessionHash: string | null;
  /** Client address, for login throttling. */
  ip: string;
  cookie: SessionCookie;
  /** The browser's device cookie (login limits, areas/auth). */
  device: DeviceCookie;
};

/** The context without HTTP: tests and the command line call procedures through this. */
export function createContextInner(
  deps: AppDeps,
  opts: { user?: SessionUser | null; sessionHash?: string | null; ip?: string; cookie?: SessionCookie; device?: DeviceCookie } = {},
): Context {
  const user = opts.user ?? null;
  return {
    deps,
    user,
    viewer: user ? { name: user.name, level: user.level } : null,
    sessionHash: opts.sessionHash ?? null,
    ip: opts.ip ?? '127.0.0.1',
    cookie: opts.cookie ?? noCookie,
    device: opts.device ?? noDevice,
  };
}

export async function createContext(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<Context> {
  const session = await resolveSession(deps.sessions, req, reply);
  return createContextInner(deps, { ...session, ip: req.ip });
}
