import { backupCommand, inUse } from '@site/server/areas/backups/backups.cli';
import { BackupError } from '@site/server/areas/backups/backups.archive';
import { ConfigError } from '@site/server/config';
import { DatabaseInUseError } from '@site/server/db/database';
import { runMain } from '../run-main.ts';

// The command lives with the backups (server/src/areas/backups/backups.cli.ts); this is its entry point.
runMain(backupCommand, [BackupError, ConfigError, DatabaseInUseError], { kind: DatabaseInUseError, text: inUse });
