import type { ColumnType } from 'kysely';

/**
 * Login and sign-up attempts counted per key, in the database so the limits hold across instances
 * and restarts. The key is a SHA-256 (hex) of what is counted ('name:alice', 'ip:10.0.0.7',
 * 'device:<id>', 'signup:10.0.0.7'): bounded whatever the client sent, and it stores no names.
 */
export interface AuthLimitsTable {
  key: string;
  hits: number;
  /** The window started with the first attempt and ends here; the next attempt after it starts again. */
  window_ends: Date;
}

/**
 * Browsers that have signed in to an account (OWASP "device cookie"): such a browser keeps its own
 * login allowance for that account, so failures from others (or from its address) cannot lock it out.
 */
export interface AuthDevicesTable {
  /** hex SHA-256 of the cookie token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  created_at: ColumnType<Date, never, never>;
}

/** The one-time code that lets the owner's account be created from another machine (setup-code.ts). */
export interface AuthSetupCodeTable {
  id: ColumnType<number, number | undefined, never>;
  code: string;
  created_at: ColumnType<Date, never, never>;
}

export interface AuthTables {
  auth_limits: AuthLimitsTable;
  auth_devices: AuthDevicesTable;
  auth_setup_code: AuthSetupCodeTable;
}
