import type { Generated, Selectable } from 'kysely';
import type { HouseStatus } from '@site/contracts';

export interface HouseTasksTable {
  id: Generated<number>;
  task: string;
  status: HouseStatus;
  /** The member who added it; null once that account is gone. */
  added_by: number | null;
  created_at: Generated<Date>;
  completed_by: number | null;
  completed_at: Date | null;
}

export interface HouseTables {
  house_tasks: HouseTasksTable;
}

export type HouseTaskRecord = Selectable<HouseTasksTable>;
