import type {} from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from './session-user.ts';
import { findSession, type SessionLookup, type SessionStore } from './sessions.ts';
import { bearerOf } from './api-tokens.ts';

export const SESSION_COOKIE = 'sid';
/** The device cookie of a browser that signed in before (areas/auth/devices.ts). */
export const DEVICE_COOKIE = 'did';
const DEVICE_MAX_AGE = 365 * 24 * 3600;

/** How a procedure sets or clears the session cookie without knowing about HTTP. */
export type SessionCookie = { set(token: string): void; clear(): void };

export const noCookie: SessionCookie = { set() {}, clear() {} };

/** The browser's device cookie as the request brought it, and how to give it a new one. */
export type DeviceCookie = { token: string | null; set(token: string): void };

export const noDevice: DeviceCookie = { token: null, set() {} };

/** The session of one HTTP request: who is signed in, and how to change the cookie in the reply. */
export type RequestSession = {
  user: SessionUser | null;
  /** How the member was recognised: a session cookie, or a personal API token (which never changes the account). */
  via: 'cookie' | 'token' | null;
  /** Hash of the current session's token, so logout and login can end it. */
  sessionHash: string | null;
  /** A personal API token's scopes (contracts/src/scopes.ts); null for every right (a cookie, or a token without scopes). */
  scopes: readonly string[] | null;
  cookie: SessionCookie;
  device: DeviceCookie;
};

/**
 * The session cookie of one HTTP reply. The cookie plugin runs no per-request hooks (see app.ts), so
 * the Set-Cookie header is written here; a later set or clear in the same request replaces it.
 */
class ReplySessionCookie implements SessionCookie {
  constructor(
    private readonly req: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly maxAge: number,
    private readonly name = SESSION_COOKIE,
  ) {}

  set(token: string): void {
    const secure = this.req.protocol === 'https';
    this.write(token, { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: this.maxAge });
  }

  clear(): void {
    const secure = this.req.protocol === 'https';
    this.write('', { httpOnly: true, sameSite: 'lax', path: '/', secure, expires: new Date(0), maxAge: 0 });
  }

  private write(value: string, opts: SerializeOptions): void {
    const line = this.reply.server.serializeCookie(this.name, value, opts);
    const current = this.reply.getHeader('set-cookie');
    const others = (current === undefined ? [] : Array.isArray(current) ? current : [String(current)]).filter(
      (c) => !c.startsWith(`${this.name}=`),
    );
    this.reply.removeHeader('set-cookie');
    this.reply.header('set-cookie', others.length === 0 ? line : [...others, line]);
  }
}

type SerializeOptions = Parameters<FastifyInstance['serializeCookie']>[2];

/** The cookies of the request, parsed only here (the one place that reads cookies). */
function cookies(req: FastifyRequest): Record<string, string | undefined> {
  const header = req.headers.cookie;
  if (!header) return {};
  return req.server.parseCookie(header);
}

/** The session token the request's cookie carries, if any (a long-lived stream checks it again later). */
export function sessionTokenOf(req: FastifyRequest): string | null {
  return cookies(req)[SESSION_COOKIE] ?? null;
}

/**
 * The one lookup of who is asking, for every request, tRPC, /api and the HTTP routes alike:
 * - `Authorization: Bearer site_...`: the member of that personal API token, at the member's level
 *   now (an unknown or revoked token is anonymous; the cookie is then not looked at). Any other
 *   Authorization header (a proxy's Basic credentials) is not ours and is ignored;
 * - else the session cookie: an unknown or expired token clears the cookie, a renewed one writes it
 *   again. A session the cache answers for (nearly every signed-in request) is resolved at once,
 *   without a promise.
 */
export function resolveSession(sessions: SessionStore, req: FastifyRequest, reply: FastifyReply): RequestSession | Promise<RequestSession> {
  const cookie = new ReplySessionCookie(req, reply, sessions.maxAgeSeconds);
  const jar = cookies(req);
  const device: DeviceCookie = {
    token: jar[DEVICE_COOKIE] ?? null,
    set: (t) => new ReplySessionCookie(req, reply, DEVICE_MAX_AGE, DEVICE_COOKIE).set(t),
  };
  const bearer = bearerOf(req.headers.authorization);
  if (bearer !== null) {
    // A script's request: no session, so no cookie is written or cleared either.
    const inert: SessionCookie = { set() {}, clear() {} };
    return sessions.apiTokenUser(bearer).then((holder) =>
      holder
        ? { user: holder.user, via: 'token', sessionHash: null, scopes: holder.scopes, cookie: inert, device: noDevice }
        : { user: null, via: null, sessionHash: null, scopes: null, cookie: inert, device: noDevice },
    );
  }
  const token = jar[SESSION_COOKIE];
  if (!token) return { user: null, via: null, sessionHash: null, scopes: null, cookie, device };
  const settle = (found: SessionLookup | null): RequestSession => {
    if (!found) {
      cookie.clear();
      return { user: null, via: null, sessionHash: null, scopes: null, cookie, device };
    }
    if (found.renewed) cookie.set(token);
    return { user: found.user, via: 'cookie', sessionHash: found.tokenHash, scopes: null, cookie, device };
  };
  const found = findSession(sessions, token);
  return found instanceof Promise ? found.then(settle) : settle(found);
}
