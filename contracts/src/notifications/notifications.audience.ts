import type { Viewer } from '../levels.ts';
import { allows, procedures } from '../permissions.ts';
import { NOTIFICATION_KIND_LIST, NOTIFICATION_KINDS, type NotificationKind } from './notifications.rules.ts';

/**
 * Whether a member may receive a kind at all: its procedure row in the permission table. The server's
 * recipients (notifications.recipients.ts) and the settings' list of kinds both ask this, so a member
 * is never offered a switch for a kind their level can never receive.
 */
export function mayReceive(kind: NotificationKind, viewer: Viewer): boolean {
  return allows(procedures[NOTIFICATION_KINDS[kind].audience], viewer);
}

/** The kinds a member's level can receive, in the table's order (the Account page's switches). */
export function receivableKinds(viewer: Viewer): NotificationKind[] {
  return NOTIFICATION_KIND_LIST.filter((kind) => mayReceive(kind, viewer));
}
