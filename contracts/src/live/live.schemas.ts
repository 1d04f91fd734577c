import type { ProcedurePath } from '../permissions.ts';

/**
 * What the live feed (`GET /events`, Server-Sent Events) tells open pages: that an area's data
 * changed, never the data itself; the page reads it again through its usual query. Each area names the
 * procedure whose row in the permission table decides who hears of its changes; an area whose rows
 * belong to one member (the Todo list) is told to that member only.
 */
export const LIVE_AREAS = {
  house: 'house.list',
  /** The meal plan, and the chores: every family member's pages. */
  plan: 'plan.week',
  chores: 'chores.list',
  todo: 'todo.list',
  pictures: 'pictures.pendingCount',
  /** Hearts and comments on any picture: open viewers read their picture's again (pictures.social). */
  pictureSocial: 'pictures.social',
  /** Albums: a family album's change to every member, a private one's to its owner only. */
  albums: 'albums.list',
  gameServers: 'gameServers.list',
  /** Accounts waiting for approval (level 0): the navbar's and the hub's count for admins. */
  accounts: 'admin.waitingCount',
  /** A member's own notifications (the navbar's bell): told to that member only. */
  notifications: 'notifications.unreadCount',
  /** One's own account (its level): told to that account alone, so a pending page moves on once approved. */
  account: 'auth.status',
} as const satisfies Record<string, ProcedurePath>;

export type LiveArea = keyof typeof LIVE_AREAS;

export const LIVE_PATH = '/events';

/**
 * The event types on the stream: a change; "read everything again" (after a gap in the feed); and
 * "this stream ends now: connect again at once and catch up" (each stream has a lifetime).
 */
export const LIVE_EVENTS = { change: 'change', resync: 'resync', reconnect: 'reconnect' } as const;

/** The `data` of a change event. */
export type LiveChange = { area: LiveArea };

export function isLiveArea(value: unknown): value is LiveArea {
  return typeof value === 'string' && Object.hasOwn(LIVE_AREAS, value);
}
