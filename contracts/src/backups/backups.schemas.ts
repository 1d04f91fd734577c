/** One backup the site made (by its scheduler or `npm run backup`), as the Admin page shows it. */
export type BackupRun = {
  kind: 'scheduled' | 'command';
  startedAt: string;
  finishedAt: string | null;
  /** The archive's file name (in BACKUP_DIR for scheduled ones). */
  file: string;
  sizeBytes: number | null;
  /** Read back in full and every entry matched the manifest's size and SHA-256. */
  verified: boolean;
  /** Why it failed; null when it worked or still runs. */
  error: string | null;
  /** The scheduler removed the file under BACKUP_KEEP. */
  removed: boolean;
};

export type BackupStatus = {
  /** BACKUP_DIR is set: the server makes backups itself. */
  scheduled: boolean;
  /** BACKUP_AT, local time of day. */
  at: string;
  /** BACKUP_KEEP as days, weeks and months. */
  keep: { days: number; weeks: number; months: number };
  /** The latest finished (or interrupted) backup, if any. */
  last: BackupRun | null;
  /** A backup in progress, if any. */
  running: BackupRun | null;
  /** When the next scheduled backup starts (ISO time); null when the schedule is off. */
  next: string | null;
};

export const backupMessages = {
  interrupted: 'The backup stopped before it finished (the server stopped or crashed)',
} as const;
