import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { HttpRegistrar } from '../../http/routes.ts';
import { calendarMessages } from '@site/contracts';
import { serveFeed } from './calendar.service.ts';

/** The host events' UIDs name (`meal-12@home.example.org`): PUBLIC_URL's, else the one the app asked at. */
function uidHost(deps: AppDeps, hostname: string): string {
  return deps.config.publicUrl ? new URL(deps.config.publicUrl).hostname : hostname.replace(/:\d+$/, '') || 'localhost';
}

/**
 * GET /calendar/<token>.ics — a member's calendar feed to a calendar app (no session: the token is
 * the authority). Served inline as text/calendar; a poll with the ETag (or a date not older than
 * Last-Modified) gets 304 with no body.
 */
export function calendarHttp(routes: HttpRegistrar, deps: AppDeps) {
  routes.route('GET /calendar/:file', async (req, reply) => {
    const file = (req.params as { file?: string }).file ?? '';
    if (!file.endsWith('.ics')) throw new AppError('NOT_FOUND', calendarMessages.notFound);
    const match = req.headers['if-none-match'];
    const since = req.headers['if-modified-since'];
    const fresh = (etag: string, lastModified: Date) =>
      match !== undefined ? match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag) : since !== undefined && Date.parse(since) >= lastModified.getTime();
    const feed = await serveFeed(deps, file.slice(0, -'.ics'.length), uidHost(deps, req.hostname), fresh);
    reply.header('etag', feed.etag).header('last-modified', feed.lastModified.toUTCString()).header('cache-control', 'private, no-cache');
    if (feed.body === null || fresh(feed.etag, feed.lastModified)) return reply.code(304).send();
    return reply
      .type('text/calendar; charset=utf-8')
      .header('content-disposition', 'inline; filename="family-week.ics"')
      .send(feed.body);
  });
}
