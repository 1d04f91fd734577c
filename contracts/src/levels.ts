/** Authentication levels, as the spec names them. Anonymous visitors have no level at all. */
export const Level = { Unauthed: 0, Friend: 1, Family: 2, Admin: 3 } as const;
export type Level = (typeof Level)[keyof typeof Level];
/** Every account level, lowest first (the tower game calls its stages floors, never levels). */
export const ACCOUNT_LEVELS = [0, 1, 2, 3] as const;

export const LEVEL_NAMES: Record<Level, string> = {
  0: 'Unauthed',
  1: 'Friend',
  2: 'Family',
  3: 'Admin',
};

/** What a request is allowed to do: `null` when nobody is signed in, otherwise the account's level. */
export type Viewer = { name: string; level: Level } | null;
