import type { Selectable } from 'kysely';

export interface UserSettingsTable {
  user_id: number;
  menu_color: string;
  background_color: string;
  foreground_color: string;
  accent_color: string;
  link_color: string;
  error_color: string;
  menu_color2: string;
  click_to_toggle: boolean;
  splash_dismissed: boolean;
}

export interface SettingsTables {
  user_settings: UserSettingsTable;
}

export type UserSettingsRecord = Selectable<UserSettingsTable>;
