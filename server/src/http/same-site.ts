import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { accessMessages } from '@site/contracts';
import { multipartUrls } from './routes.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Content types a plain HTML form (or a no-CORS fetch) can send from any site. */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

function originMatchesHost(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * Refuses state-changing requests made by another site: browsers say where a request comes from in
 * Sec-Fetch-Site (older ones only in Origin), and a cross-site form can only send the form content
 * types, so those are refused too, except multipart/form-data on the routes whose row in the
 * permission table says `multipart` (they keep the same-site rule). Non-browser clients (curl, tests)
 * send neither header and pass. Returns a callback-style onRequest hook (no promise per request;
 * GET and HEAD return at once).
 */
export type SameSiteGuard = (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

export function sameSiteGuard(uploads: readonly string[] = multipartUrls()): SameSiteGuard {
  const uploadUrls = new Set(uploads);
  return (req, reply, done) => {
    if (!UNSAFE.has(req.method)) return done();
    const site = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    const crossSite =
      site !== undefined ? site !== 'same-origin' && site !== 'none' : origin !== undefined && !originMatchesHost(origin, req.headers.host);
    if (crossSite) return void reply.code(403).send({ message: accessMessages.crossSite });
    const type = req.headers['content-type'];
    if (type !== undefined) {
      const media = type.split(';', 1)[0]?.trim().toLowerCase() ?? '';
      const allowedUpload = media === 'multipart/form-data' && uploadUrls.has(req.routeOptions.url ?? '');
      if (FORM_TYPES.has(media) && !allowedUpload) {
        return void reply.code(415).send({ message: accessMessages.formContentType });
      }
    }
    done();
  };
}
