import type { ColumnType, Generated } from 'kysely';

/** A member's best verified daily-tower game of a day: one row per (member, day). */
export interface TowerDailyResultsTable {
  user_id: number;
  /** The UTC day, YYYY-MM-DD (the seed is `daily-` + this). */
  date: string;
  rounds: number;
  floors: number;
  won: boolean;
  /** The accepted action log of that game (JSON), so the result can be replayed again. Written as JSON text. */
  actions: ColumnType<unknown, string, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface TowerDailyTables {
  tower_daily_results: TowerDailyResultsTable;
}
