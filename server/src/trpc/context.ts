import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNT_HEADER, type Viewer } from '@site/contracts';
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
  /** A personal API token's scopes, checked by the procedure gate; null for every right (a cookie, a token without scopes, no HTTP). */
  scopes: readonly string[] | null;
  /** Client address, for login throttling. */
  ip: string;
  /** The browser's User-Agent, kept with a new session for the account page's device list. */
  userAgent: string | null;
  cookie: SessionCookie;
  /** The browser's device cookie (login limits, areas/auth). */
  device: DeviceCookie;
  /** The account the caller says it acts for (the offline queue's ACCOUNT_HEADER, lower case), or null. */
  account: string | null;
  /** The site's origin as the browser asked for it (scheme and Host header), for passkeys' relying party; null without HTTP. */
  origin: string | null;
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
    scopes?: readonly string[] | null;
    ip?: string;
    userAgent?: string | null;
    cookie?: SessionCookie;
    device?: DeviceCookie;
    port?: () => number | undefined;
    account?: string | null;
    origin?: string | null;
  } = {},
): Context {
  const user = opts.user ?? null;
  return {
    deps,
    user,
    viewer: user ? { name: user.name, level: user.level } : null,
    sessionHash: opts.sessionHash ?? null,
    scopes: opts.scopes ?? null,
    ip: opts.ip ?? '127.0.0.1',
    userAgent: opts.userAgent ?? null,
    cookie: opts.cookie ?? noCookie,
    device: opts.device ?? noDevice,
    port: opts.port ?? noPort,
    account: opts.account ?? null,
    origin: opts.origin ?? null,
  };
}

/** The context of one HTTP request; at once (no promise) when the session cache answers. */
export function createContext(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Context | Promise<Context> {
  const session = resolveSession(deps.sessions, req, reply);
  // Named fields rather than a spread of `s`: this runs on every request, and V8 copies a spread slowly.
  const account = accountOf(req);
  const build = (s: RequestSession) =>
    createContextInner(deps, { user: s.user, sessionHash: s.sessionHash, scopes: s.scopes, ip: req.ip, userAgent: userAgentOf(req), cookie: s.cookie, device: s.device, port: () => servedPort(req, deps.config), account, origin: originOf(req) });
  return session instanceof Promise ? session.then(build) : build(session);
}

/** The ACCOUNT_HEADER of a request, lower case; an unreadable one names no account anybody has. */
function accountOf(req: FastifyRequest): string | null {
  const value = req.headers[ACCOUNT_HEADER];
  if (typeof value !== 'string') return null;
  try {
    return decodeURIComponent(value).toLowerCase();
  } catch {
    return '';
  }
}

/** The User-Agent header, capped (it is stored with a session). */
function userAgentOf(req: FastifyRequest): string | null {
  const ua = req.headers['user-agent'];
  return typeof ua === 'string' && ua !== '' ? ua.slice(0, 512) : null;
}

/** 'http://home.local:8080' from the request's scheme and host (X-Forwarded-* only from a trusted proxy), or null without one. */
function originOf(req: FastifyRequest): string | null {
  const host = req.host;
  return typeof host === 'string' && host !== '' ? `${req.protocol}://${host}` : null;
}
