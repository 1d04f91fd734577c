import type {} from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/**
 * The session cookie of one HTTP reply. The cookie plugin runs no per-request hooks (see app.ts), so
 * the Set-Cookie header is written here; a later set or clear in the same request replaces it.
 */
class ReplySessionCookie implements SessionCookie {
  constructor(
    private readonly req: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly maxAge: number,
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
    const line = this.reply.server.serializeCookie(SESSION_COOKIE, value, opts);
    const current = this.reply.getHeader('set-cookie');
    const others = (current === undefined ? [] : Array.isArray(current) ? current : [String(current)]).filter(
      (c) => !c.startsWith(`${SESSION_COOKIE}=`),
    );
    this.reply.removeHeader('set-cookie');
    this.reply.header('set-cookie', others.length === 0 ? line : [...others, line]);
  }
}

type SerializeOptions = Parameters<FastifyInstance['serializeCookie']>[2];

/** The session token from the Cookie header, parsed only here (the one place that reads cookies). */
function sessionToken(req: FastifyRequest): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  return req.server.parseCookie(header)[SESSION_COOKIE];
}

export async function createContext(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<Context> {
  const cookie = new ReplySessionCookie(req, reply, deps.sessions.maxAgeSeconds);
  const token = sessionToken(req);
  if (!token) return createContextInner(deps, { ip: req.ip, cookie });
  const found = await deps.sessions.lookup(token);
  if (!found) {
    cookie.clear();
    return createContextInner(deps, { ip: req.ip, cookie });
  }
  if (found.renewed) cookie.set(token);
  return createContextInner(deps, { user: found.user, sessionHash: found.tokenHash, ip: req.ip, cookie });
}
