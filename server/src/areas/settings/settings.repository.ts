import { DEFAULT_COLORS, type Colors } from '@site/contracts';
import type { Executor } from '../../db/database.ts';
import type { UserSettingsTable } from './settings.tables.ts';

export function findSettings(db: Executor, userId: number) {
  return db.selectFrom('user_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export const colorColumns = (c: Colors) => ({
  menu_color: c.menuColor,
  background_color: c.backgroundColor,
  foreground_color: c.foregroundColor,
  accent_color: c.accentColor,
  link_color: c.linkColor,
  error_color: c.errorColor,
  menu_color2: c.menuColor2,
});

type Changes = Partial<Omit<UserSettingsTable, 'user_id'>>;

/** Writes some settings of a user, creating the row with the defaults on first use. */
export function saveSettings(db: Executor, userId: number, changes: Changes) {
  return db
    .insertInto('user_settings')
    .values({ user_id: userId, ...colorColumns(DEFAULT_COLORS), click_to_toggle: false, splash_dismissed: false, ...changes })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(changes))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The owner's settings: the first account still at the owner's level (3), if it saved any. */
export function findOwnerSettings(db: Executor) {
  return db
    .selectFrom('users')
    .innerJoin('user_settings', 'user_settings.user_id', 'users.id')
    .selectAll('user_settings')
    .where('users.level', '=', 3)
    .orderBy('users.id')
    .limit(1)
    .executeTakeFirst();
}
