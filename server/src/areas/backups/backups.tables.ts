import type { ColumnType, Generated, Selectable } from 'kysely';

/** One backup the site made: by the scheduler (one row per scheduled time, claimed) or by the command. */
export interface BackupRunsTable {
  id: Generated<number>;
  kind: 'scheduled' | 'command';
  /** The scheduled time this run is for (unique: the instance that inserts it runs it); null for the command. */
  slot: Date | null;
  started_at: Date;
  /** Renewed while the backup runs: a run whose heartbeat stopped was interrupted. */
  heartbeat_at: Date;
  finished_at: Date | null;
  file: string;
  size_bytes: ColumnType<string | null, number | null, number | null>;
  verified: Generated<boolean>;
  error: string | null;
  /** When BACKUP_KEEP's retention removed the file. */
  removed_at: Date | null;
  /** The process that runs it and its machine (os.hostname()); null for runs recorded before these were. */
  pid: ColumnType<number | null, number | null | undefined, never>;
  host: ColumnType<string | null, string | null | undefined, never>;
}

export interface BackupsTables {
  backup_runs: BackupRunsTable;
}

export type BackupRunRecord = Selectable<BackupRunsTable>;
