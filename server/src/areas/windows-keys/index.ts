import { defineServerArea } from '../area.ts';
import { windowsKeysMigrations } from './windows-keys.migrations.ts';
import { windowsKeysRouter } from './windows-keys.router.ts';

export const windowsKeysArea = defineServerArea({ router: windowsKeysRouter, migrations: windowsKeysMigrations });
