import type { TodoStatus } from '@site/contracts';
import type { Executor } from '../../db/database.ts';

const columns = ['id', 'task', 'status'] as const;

export function listTasks(db: Executor, userId: number) {
  return db.selectFrom('todo_tasks').select(columns).where('user_id', '=', userId).orderBy('id').execute();
}

export function insertTask(db: Executor, userId: number, task: string) {
  return db.insertInto('todo_tasks').values({ user_id: userId, task, status: 'Active' }).returning(columns).executeTakeFirstOrThrow();
}

/** Changes one of the member's own tasks; undefined when the member has no task of that id. */
export function updateTask(db: Executor, userId: number, id: number, changes: { status: TodoStatus; task?: string }) {
  return db
    .updateTable('todo_tasks')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(columns)
    .executeTakeFirst();
}

export function deleteTask(db: Executor, userId: number, id: number) {
  return db.deleteFrom('todo_tasks').where('id', '=', id).where('user_id', '=', userId).returning(columns).executeTakeFirst();
}

/** One of the member's own tasks, locked for the change that follows. */
export function findTask(db: Executor, userId: number, id: number) {
  return db.selectFrom('todo_tasks').select(columns).where('id', '=', id).where('user_id', '=', userId).forUpdate().executeTakeFirst();
}
