import type { Generated, Selectable } from 'kysely';

/** One guest pass used: who came, who brought them, when. */
export interface ClimbingPassesTable {
  id: Generated<number>;
  guest: string;
  /** The member who added it; null once that account is gone (the pass still counts). */
  added_by: number | null;
  created_at: Generated<Date>;
}

export interface ClimbingTables {
  climbing_passes: ClimbingPassesTable;
}

export type ClimbingPassRecord = Selectable<ClimbingPassesTable>;
