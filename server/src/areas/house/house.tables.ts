import type { Generated, Selectable } from 'kysely';
import type { HouseStatus, HouseType } from '@site/contracts';

export interface HouseTasksTable {
  id: Generated<number>;
  task: string;
  status: HouseStatus;
  /** The member who added it; null once that account is gone. */
  added_by: number | null;
  created_at: Generated<Date>;
  completed_by: number | null;
  completed_at: Date | null;
  /** The list it is (or was, once complete) on. */
  type: HouseType;
  quantity: string | null;
  note: string | null;
  repeat_days: number | null;
  due_at: Date | null;
  /** The occurrence completing this repeating task added; Undo removes it while still open. */
  next_id: number | null;
}

export interface HouseTables {
  house_tasks: HouseTasksTable;
}

export type HouseTaskRecord = Selectable<HouseTasksTable>;
