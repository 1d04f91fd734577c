import { gameServerMessages, type MarkReadInput, type NotificationPage, type NotificationSettings, type NotificationSettingsInput } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import * as repo from './notifications.repository.ts';

export function list(deps: AppDeps, user: SessionUser, cursor: number | undefined): Promise<NotificationPage> {
  return repo.listInbox(deps.db, user.id, cursor);
}

export async function unreadCount(deps: AppDeps, user: SessionUser): Promise<{ count: number }> {
  return { count: await repo.unreadCount(deps.db, user.id) };
}

export async function markRead(deps: AppDeps, user: SessionUser, input: MarkReadInput): Promise<{ marked: number }> {
  return { marked: await repo.markRead(deps.db, user.id, 'all' in input ? 'all' : input.ids) };
}

/** A member who never saved: nothing muted, no quiet hours, no zone of their own yet. */
const DEFAULT_SETTINGS: NotificationSettings = { muted: [], quietFrom: null, quietTo: null, timeZone: null };

export async function settings(deps: AppDeps, user: SessionUser): Promise<NotificationSettings> {
  const row = (await repo.readSettings(deps.db, [user.id])).get(user.id);
  return row ? { muted: row.muted, quietFrom: row.quietFrom, quietTo: row.quietTo, timeZone: row.timeZone } : DEFAULT_SETTINGS;
}

/**
 * Saves the kinds and quiet hours. The member's time zone changes only when `timeZone` is given (the
 * settings' select, on purpose); the saving device's `deviceTimeZone` fills it only on the first save,
 * so a desktop in UTC saving a switch leaves a member's Asia/Bangkok alone.
 */
export async function setSettings(deps: AppDeps, user: SessionUser, input: NotificationSettingsInput): Promise<NotificationSettings> {
  await repo.saveSettings(deps.db, user.id, {
    muted: input.muted,
    quietFrom: input.quietFrom ?? null,
    quietTo: input.quietTo ?? null,
    timeZone: input.timeZone ?? null,
    firstTimeZone: input.deviceTimeZone ?? deps.config.timeZone,
  });
  return settings(deps, user);
}

/** `notifications.followed`: the game servers the member follows (ids). */
export async function followed(deps: AppDeps, user: SessionUser): Promise<{ ids: number[] }> {
  const rows = await deps.db.selectFrom('notification_follows').select('server_id').where('user_id', '=', user.id).orderBy('server_id').execute();
  return { ids: rows.map((r) => r.server_id) };
}

/** `notifications.follow`: the Game Servers page's Follow toggle. */
export async function follow(deps: AppDeps, user: SessionUser, input: { id: number; follow: boolean }): Promise<{ ids: number[] }> {
  if (input.follow) {
    const server = await deps.db.selectFrom('game_servers').select('id').where('id', '=', input.id).executeTakeFirst();
    if (!server) throw new AppError('NOT_FOUND', gameServerMessages.notFound);
    await deps.db
      .insertInto('notification_follows')
      .values({ user_id: user.id, server_id: input.id })
      .onConflict((oc) => oc.columns(['user_id', 'server_id']).doNothing())
      .execute();
  } else {
    await deps.db.deleteFrom('notification_follows').where('user_id', '=', user.id).where('server_id', '=', input.id).execute();
  }
  return followed(deps, user);
}
