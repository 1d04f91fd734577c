import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Viewer } from '@site/contracts';
import type { AppDeps } from '../deps.ts';
import { noCookie, noDevice, resolveSession, type DeviceCookie, type RequestSession, type SessionCookie } from '../identity/request-session.ts';
import type { SessionUser } from '../identity/session-user.ts';
import { servedPort } from '../http/ports.ts';

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
  /** The port the request was served on (`servedPort`: its connection's, never the Host header), for `allows` to read only when a rule's `alsoOnPort` decides; none without HTTP. */
  port: () => number | undefined;
};

const noPort = () => undefined;

/** The context without HTTP: tests and the command line call procedures through this. */
export function createContextInner(
  deps: AppDeps,
  opts: {
    user?: SessionUser | null;
    sessionHash?: string | null;
    ip?: string;
    cookie?: SessionCookie;
    device?: DeviceCookie;
    port?: () => number | undefined;
  } = {},
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
    port: opts.port ?? noPort,
  };
}

/** The context of one HTTP request; at once (no promise) when the session cache answers. */
export function createContext(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Context | Promise<Context> {
  const session = resolveSession(deps.sessions, req, reply);
  // Named fields rather than a spread of `s`: this runs on every request, and V8 copies a spread slowly.
  const build = (s: RequestSession) =>
    createContextInner(deps, { user: s.user, sessionHash: s.sessionHash, ip: req.ip, cookie: s.cookie, device: s.device, port: () => servedPort(req, deps.config) });
  return session instanceof Promise ? session.then(build) : build(session);
}
