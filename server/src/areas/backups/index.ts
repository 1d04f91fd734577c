import { defineServerArea } from '../area.ts';
import { backupsMigrations } from './backups.migrations.ts';
import { backupsRouter } from './backups.router.ts';
import { startBackupScheduler } from './backups.worker.ts';

export const backupsArea = defineServerArea({ router: backupsRouter, migrations: backupsMigrations, worker: startBackupScheduler });
