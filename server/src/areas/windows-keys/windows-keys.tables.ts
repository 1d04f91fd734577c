import type { Generated, Selectable } from 'kysely';
import type { WindowsKeyStatus } from '@site/contracts';

export interface WindowsKeysTable {
  /** Formatted: five dashed groups of five upper-case letters and digits. */
  key: string;
  status: WindowsKeyStatus;
  location: string;
  /** Who last registered, claimed or released it, and when. */
  changed_by: number | null;
  changed_at: Generated<Date>;
}

/** Every register, claim and release: the history of who had which key where. */
export interface WindowsKeyEventsTable {
  id: Generated<number>;
  key: string;
  action: 'register' | 'claim' | 'release' | 'unused';
  status: WindowsKeyStatus;
  location: string;
  user_id: number | null;
  at: Generated<Date>;
}

export interface WindowsKeysTables {
  windows_keys: WindowsKeysTable;
  windows_key_events: WindowsKeyEventsTable;
}

export type WindowsKeyRecord = Selectable<WindowsKeysTable>;
