import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { allows, LIVE_AREAS, LIVE_EVENTS, procedures, type LiveChange } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { HttpRegistrar } from '../../http/routes.ts';
import { servedPort } from '../../http/ports.ts';
import { bearerOf } from '../../identity/api-tokens.ts';
import { sessionTokenOf, type RequestSession } from '../../identity/request-session.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import { findSession } from '../../identity/sessions.ts';
import { hashToken } from '../../identity/token-hash.ts';
import type { Change, FeedMessage } from '../../events/change-feed.ts';

/** A comment line this often keeps proxies and the browser from taking a quiet stream for a dead one. */
export const HEARTBEAT_MS = 25_000;
/** How long the browser waits before it reconnects after the stream drops (the `retry` field). */
export const RECONNECT_MS = 1_000;
/** Open streams per process, and per client address (an IPv4 address, or an IPv6 /64: one household's). */
export const MAX_STREAMS = 2_000;
export const MAX_STREAMS_PER_ADDRESS = 32;
/**
 * Streams of viewers who are not members (no account, a cookie that names no session, or an account
 * still waiting for approval at level 0): at most this many per address (or /64), and in all half
 * the process's places, so that nobody can take every place without being approved; the other half is
 * kept for members. A browser needs one stream however many tabs it has open (the client shares it
 * between tabs).
 */
export const MAX_ANONYMOUS_STREAMS = MAX_STREAMS / 2;
export const MAX_ANONYMOUS_PER_ADDRESS = 8;
/**
 * Streams of one account, whatever its level and from however many addresses (a session cookie or a
 * personal API token alike): one per browser or device it follows the site on, so a handful. A
 * pending account made for the purpose cannot fill the guests' half from many addresses, nor one
 * member the members' half.
 */
export const MAX_STREAMS_PER_ACCOUNT = 6;
/**
 * Bytes a stream may have waiting in the process to be sent: past this the reader is not reading (the
 * kernel's buffers, its send buffer and the reader's receive buffer, are full too) and the stream is
 * dropped. An event is a few dozen bytes and the events of one moment go out together (Node sends a
 * response's writes of one tick at once), so a page that reads never comes near it.
 */
export const MAX_BACKLOG_BYTES = 64 * 1024;

const RESYNC_TEXT = `event: ${LIVE_EVENTS.resync}\ndata: {}\n\n`;
const RECONNECT_TEXT = `event: ${LIVE_EVENTS.reconnect}\ndata: {}\n\n`;
const PING_TEXT = ': ping\n\n';
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
  tooManyAnonymous: 'Too many live connections without signing in from this network; sign in to follow changes live',
  tooManyForAccount: 'Too many live connections for this account; close this site on another device or browser',
} as const;

/** Whether `viewer` may hear of `change`: the area's procedure row, and for one member's rows, that member only. */
export function mayHear(change: Change, viewer: SessionUser | null, port: () => number | undefined): boolean {
  if (change.userId !== null && viewer?.id !== change.userId) return false;
  return allows(procedures[LIVE_AREAS[change.area]], viewer && { name: viewer.name, level: viewer.level }, port);
}

/** The group a client address is counted in: an IPv4 address itself (IPv4-mapped IPv6 included), an IPv6 address's /64. */
export function addressGroup(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.parse(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

type GroupCount = { all: number; anonymous: number };

/**
 * Who a stream's place is taken for: its address group, its account (null without one) and whether
 * that account is a member's (level 1 and up). A pending account (level 0) counts with the anonymous.
 */
export type SlotHolder = { group: string; account: number | null; member: boolean };

/** The viewer of a stream as a holder of places: level 0 is not a member's place. */
export function holderOf(group: string, user: SessionUser | null): SlotHolder {
  return { group, account: user?.id ?? null, member: user !== null && user.level >= 1 };
}

/** The places for streams: in all, without a member's account, per address group and per account. */
export class StreamSlots {
  private all = 0;
  private anonymous = 0;
  private readonly groups = new Map<string, GroupCount>();
  private readonly accounts = new Map<number, number>();

  /** Takes a place for a stream of `holder`; the refusal's message when there is none. */
  take(holder: SlotHolder): string | null {
    const { group, account, member } = holder;
    const count = this.groups.get(group) ?? { all: 0, anonymous: 0 };
    const ofAccount = account === null ? 0 : (this.accounts.get(account) ?? 0);
    if (this.all >= MAX_STREAMS || count.all >= MAX_STREAMS_PER_ADDRESS) return liveMessages.tooMany;
    if (!member && (this.anonymous >= MAX_ANONYMOUS_STREAMS || count.anonymous >= MAX_ANONYMOUS_PER_ADDRESS)) return liveMessages.tooManyAnonymous;
    if (ofAccount >= MAX_STREAMS_PER_ACCOUNT) return liveMessages.tooManyForAccount;
    this.all++;
    count.all++;
    if (!member) {
      this.anonymous++;
      count.anonymous++;
    }
    this.groups.set(group, count);
    if (account !== null) this.accounts.set(account, ofAccount + 1);
    return null;
  }

  release(holder: SlotHolder): void {
    const { group, account, member } = holder;
    const count = this.groups.get(group);
    if (!count) return;
    this.all--;
    count.all--;
    if (!member) {
      this.anonymous--;
      count.anonymous--;
    }
    if (count.all === 0) this.groups.delete(group);
    if (account !== null) {
      const left = (this.accounts.get(account) ?? 1) - 1;
      if (left > 0) this.accounts.set(account, left);
      else this.accounts.delete(account);
    }
  }
}

/**
 * `GET /events`: the live feed as Server-Sent Events. The stream first says `ready`, then sends a
 * `change` event (`{"area":"house"}`) for each change the viewer may read, and `resync` when changes
 * may have been missed (the feed's listener was down). The viewer is the one the session lookup of the
 * request found when the stream opened (an unknown session is anonymous for the stream's life), so an
 * event costs each stream only memory; the session store tells the stream when its session ended or
 * its account changed (session-events.ts, in this process or another), and the stream looks it up
 * again then, so a logout or a lowered level stops private events at once. Each stream lasts
 * LIVE_STREAM_SECONDS (and never past its session's expiry), then says `reconnect` and ends; a stream
 * whose reader does not read is dropped. The page reads the changed area again through its own query;
 * nothing else travels here.
 */
export function liveHttp(routes: HttpRegistrar, deps: AppDeps): void {
  const slots = new StreamSlots();
  routes.route('GET /events', (req, reply, { session }) => openStream(req, reply, deps, slots, session));
}

/**
 * How a stream looks its viewer up again: by its session cookie, or by the personal API token it was
 * opened with (`Authorization: Bearer`). Null for a stream opened without either (nothing to re-check).
 */
type Credential = { hash: string; find(): SessionUser | null | Promise<SessionUser | null> };

function credentialOf(req: FastifyRequest, deps: AppDeps, session: RequestSession): Credential | null {
  if (session.via === 'token') {
    const bearer = bearerOf(req.headers.authorization);
    if (!bearer) return null;
    // A revoked token's row is deleted; its hash is what the deletion's notification names.
    return { hash: hashToken(bearer), find: () => deps.sessions.apiTokenUser(bearer).then((holder) => holder?.user ?? null) };
  }
  const token = sessionTokenOf(req);
  if (!token || !session.sessionHash) return null;
  return {
    hash: session.sessionHash,
    find: () => {
      const found = findSession(deps.sessions, token);
      return found instanceof Promise ? found.then((f) => f?.user ?? null) : found.user;
    },
  };
}

function openStream(req: FastifyRequest, reply: FastifyReply, deps: AppDeps, slots: StreamSlots, session: RequestSession): void {
  const holder = holderOf(addressGroup(req.ip), session.user);
  const refusal = slots.take(holder);
  if (refusal !== null) throw new AppError('TOO_MANY_REQUESTS', refusal);

  const port = () => servedPort(req, deps.config);
  const credential = session.user ? credentialOf(req, deps, session) : null;
  /** The viewer: as found when the stream opened, until the session store says to look again. */
  let viewer: SessionUser | null | Promise<SessionUser | null> = session.user;
  const lookAgain = () => {
    if (!credential) return;
    const found = credential.find();
    if (!(found instanceof Promise)) return void (viewer = found);
    const next = found.catch(() => null);
    viewer = next;
    void next.then((user) => {
      if (viewer === next) viewer = user;
    });
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

  let closed = false;
  /** Writes `text`, and drops the stream when what waits to be sent passes MAX_BACKLOG_BYTES (a reader that does not read). */
  const write = (text: string) => {
    if (closed) return;
    res.write(text);
    if (res.writableLength > MAX_BACKLOG_BYTES) close(true);
  };

  // Events go out in the order the feed gave them, each after its viewer check: at once when the
  // viewer is known and none is waiting, else queued behind the lookup.
  let queue: Promise<void> | null = null;
  const send = (message: FeedMessage, seen: SessionUser | null) => {
    if (message.kind === 'resync') write(RESYNC_TEXT);
    else if (mayHear(message.change, seen, port)) write(changeText(message.change));
  };
  const deliver = (message: FeedMessage) => {
    // While the session listener is down, another process's logout would go unheard: look again each time.
    if (credential && !deps.sessions.trusted) lookAgain();
    const now = viewer;
    if (queue === null && !(now instanceof Promise)) return send(message, now);
    const waiting: Promise<void> = (queue ?? Promise.resolve()).then(async () => {
      send(message, await now);
      if (queue === waiting) queue = null;
    });
    queue = waiting;
  };

  const close = (drop = false) => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    clearTimeout(lifetime);
    unsubscribe();
    unwatch();
    slots.release(holder);
    if (drop) res.destroy();
    else res.end();
  };
  const unsubscribe = deps.changes.subscribe(deliver, () => close());
  // A session's end or a token's revocation (by its hash), and a change of the account (its level, name, deletion).
  const unwatch = session.user && credential ? deps.sessions.watch(credential.hash, session.user.id, lookAgain) : () => {};
  const heartbeat = setInterval(() => write(PING_TEXT), HEARTBEAT_MS);
  heartbeat.unref();
  // A tenth of jitter, so that streams opened together do not all reconnect together.
  const expiresAt = session.sessionHash ? deps.sessions.expiresAt(session.sessionHash) : undefined;
  const lifetimeMs = Math.min(deps.config.liveStreamMs * (0.9 + Math.random() / 10), expiresAt === undefined ? Infinity : Math.max(0, expiresAt - Date.now()));
  const lifetime = setTimeout(() => {
    write(RECONNECT_TEXT);
    close();
  }, lifetimeMs);
  lifetime.unref();
  req.raw.on('close', () => close());
  res.on('error', () => close(true));
  write(`retry: ${RECONNECT_MS}\nevent: ready\ndata: {}\n\n`);
}
