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

/** One-time password reset links an admin made (reset-links.ts); only the hash of the link's token is kept. */
export interface AuthResetLinksTable {
  token_hash: string;
  user_id: number;
  created_at: ColumnType<Date, never, never>;
  expires_at: Date;
  /** Set when the link was used; a used link only says so. */
  used_at: Date | null;
  /** Set when a newer link for the member replaced this unused one; it then only says so. */
  replaced_at: ColumnType<Date | null, never, Date>;
}

/** A member's passkey (WebAuthn credential): its id and COSE public key in base64url, and the signature counter. */
export interface AuthPasskeysTable {
  id: ColumnType<number, never, never>;
  user_id: number;
  credential_id: string;
  public_key: string;
  /** bigint in the database: read as a string on PostgreSQL, a number on PGlite. */
  counter: ColumnType<string | number, number, number>;
  /** The authenticator's transports ('internal,hybrid'), passed back to the browser as hints. */
  transports: string;
  name: string;
  created_at: ColumnType<Date, never, never>;
  last_used_at: Date | null;
}

/**
 * A passkey ceremony under way: the challenge the server sent, for whom (null for a sign-in, which
 * names nobody), until when. Deleted when answered, so each challenge works once.
 */
export interface AuthPasskeyChallengesTable {
  challenge: string;
  user_id: number | null;
  expires_at: Date;
}

export interface AuthTables {
  auth_passkeys: AuthPasskeysTable;
  auth_passkey_challenges: AuthPasskeyChallengesTable;
  auth_limits: AuthLimitsTable;
  auth_devices: AuthDevicesTable;
  auth_setup_code: AuthSetupCodeTable;
  auth_reset_links: AuthResetLinksTable;
}
