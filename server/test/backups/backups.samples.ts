import type { backupsRoutes } from '@site/contracts';
import type { AreaSamples } from '../area-tables.ts';

/** A valid input per procedure: the permission matrix calls each at every level. */
export const backupsSamples = {
  'backups.status': undefined,
} satisfies AreaSamples<typeof backupsRoutes>;
