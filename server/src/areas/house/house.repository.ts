import type { HouseType } from '@site/contracts';
import type { Executor } from '../../db/database.ts';

const columns = ['id', 'task', 'status'] as const;

/** Open tasks, and the completed ones of the last `completedDays` days (the list would otherwise only grow). */
export function listTasks(db: Executor, completedSince: Date) {
  return db
    .selectFrom('house_tasks')
    .select(columns)
    .where((eb) => eb.or([eb('status', '!=', 'Complete'), eb('completed_at', '>=', completedSince)]))
    .orderBy('id')
    .execute();
}

export function insertTask(db: Executor, userId: number, task: string, type: HouseType) {
  return db.insertInto('house_tasks').values({ task, status: type, added_by: userId }).returning(columns).executeTakeFirstOrThrow();
}

export function findTask(db: Executor, id: number) {
  return db.selectFrom('house_tasks').select(columns).where('id', '=', id).forUpdate().executeTakeFirst();
}

export function completeTask(db: Executor, userId: number, id: number) {
  return db
    .updateTable('house_tasks')
    .set({ status: 'Complete', completed_by: userId, completed_at: new Date() })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirstOrThrow();
}
