import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { allows, LIVE_AREAS, LIVE_EVENTS, procedures, type LiveChange } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { HttpRegistrar } from '../../http/routes.ts';
import { servedPort } from '../../http/ports.ts';
import { sessionTokenOf } from '../../identity/request-session.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { findSession } from '../../identity/sessions.ts';
import type { Change, FeedMessage } from './change-feed.ts';

/** A comment line this often keeps proxies and the browser from taking a quiet stream for a dead one. */
export const HEARTBEAT_MS = 25_000;
/** How long the browser waits before it reconnects after the stream drops (the `retry` field). */
export const RECONNECT_MS = 1_000;
/** Open streams per process and per client address; a tab needs one (the client shares it between tabs). */
export const MAX_STREAMS = 2_000;
export const MAX_STREAMS_PER_ADDRESS = 32;

const RESYNC_TEXT = `event: ${LIVE_EVENTS.resync}\ndata: {}\n\n`;
/** The text of a change event, the same for every stream (made once per area). */
const changeTexts = new Map<string, string>();
function changeText(change: Change): string {
  let text = changeTexts.get(change.area);
  if (text === undefined) {
    const data: LiveChange = { area: change.area };
    text = `event: ${LIVE_EVENTS.change}\ndata: ${JSON.stringify(data)}\n\n`;
    changeTexts.set(change.area, text);
  }
  return text;
}

export const liveMessages = {
  tooMany: 'Too many live connections; close some tabs of this site',
} as const;

/** Whether `viewer` may hear of `change`: the area's procedure row, and for one member's rows, that member only. */
export function mayHear(change: Change, viewer: SessionUser | null, port: () => number | undefined): boolean {
  if (change.userId !== null && viewer?.id !== change.userId) return false;
  return allows(procedures[LIVE_AREAS[change.area]], viewer && { name: viewer.name, level: viewer.level }, port);
}

/**
 * `GET /events`: the live feed as Server-Sent Events. The stream first says `ready`, then sends a
 * `change` event (`{"area":"house"}`) for each change the viewer may read, and `resync` when changes
 * may have been missed (the feed's listener was down). The viewer is looked up again for every event
 * (the session cache makes that a map lookup), so a logout or a lowered level stops private events at
 * once. The page reads the changed area again through its own query; nothing else travels here.
 */
export function liveHttp(routes: HttpRegistrar, deps: AppDeps): void {
  const perAddress = new Map<string, number>();
  routes.route('GET /events', (req, reply) => openStream(req, reply, deps, perAddress));
}

function openStream(req: FastifyRequest, reply: FastifyReply, deps: AppDeps, perAddress: Map<string, number>): void {
  const address = req.ip;
  const fromAddress = perAddress.get(address) ?? 0;
  if (deps.changes.size >= MAX_STREAMS || fromAddress >= MAX_STREAMS_PER_ADDRESS) throw new AppError('TOO_MANY_REQUESTS', liveMessages.tooMany);
  perAddress.set(address, fromAddress + 1);

  const token = sessionTokenOf(req);
  const port = () => servedPort(req, deps.config);
  /** The viewer now, at once when the session cache knows (nearly always), else after a lookup. */
  const viewerNow = (): SessionUser | null | Promise<SessionUser | null> => {
    if (!token) return null;
    const found = findSession(deps.sessions, token);
    return found instanceof Promise ? found.then((f) => f?.user ?? null, () => null) : found.user;
  };

  reply.hijack();
  const res = reply.raw;
  // The security headers the onRequest hook gave the reply, and the stream's own.
  res.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  // The socket's idle limit is for requests; this stream is quiet between events by design.
  req.raw.socket.setTimeout(0);
  res.write(`retry: ${RECONNECT_MS}\nevent: ready\ndata: {}\n\n`);

  let closed = false;
  // Events go out in the order the feed gave them, each after its viewer check: at once when the
  // check needs no lookup and none is waiting, else queued behind the lookups.
  let queue: Promise<void> | null = null;
  const send = (message: FeedMessage, viewer: SessionUser | null) => {
    if (closed) return;
    if (message.kind === 'resync') res.write(RESYNC_TEXT);
    else if (mayHear(message.change, viewer, port)) res.write(changeText(message.change));
  };
  const deliver = (message: FeedMessage) => {
    const viewer = message.kind === 'resync' ? null : viewerNow();
    if (queue === null && !(viewer instanceof Promise)) return send(message, viewer);
    const waiting: Promise<void> = (queue ?? Promise.resolve()).then(async () => {
      send(message, await viewer);
      if (queue === waiting) queue = null;
    });
    queue = waiting;
  };

  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    const left = (perAddress.get(address) ?? 1) - 1;
    if (left > 0) perAddress.set(address, left);
    else perAddress.delete(address);
    res.end();
  };
  const unsubscribe = deps.changes.subscribe(deliver, close);
  const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  req.raw.on('close', close);
  res.on('error', close);
}
