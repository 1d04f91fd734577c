import type { ColumnType, Generated, Selectable } from 'kysely';

/** One run of a Dev Dash action: the audit log, and while it runs the job the page polls. */
export interface DevRunsTable {
  id: Generated<number>;
  action: string;
  /** Who pressed the button; the name is kept even if the account goes. */
  user_id: number | null;
  who: string;
  started_at: ColumnType<Date, never, never>;
  finished_at: Date | null;
  /** running, succeeded, failed, timed out, could not start, interrupted */
  status: string;
  exit_code: number | null;
  duration_ms: number | null;
  timeout_seconds: number;
  /** The end of the output (stdout and stderr interleaved as they came), capped. */
  output: Generated<string>;
}

export interface DevDashboardTables {
  dev_runs: DevRunsTable;
}

export type DevRunRecord = Selectable<DevRunsTable>;
