import type { Generated, Selectable } from 'kysely';
import type { TodoStatus } from '@site/contracts';

export interface TodoTasksTable {
  id: Generated<number>;
  user_id: number;
  task: string;
  status: TodoStatus;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface TodoTables {
  todo_tasks: TodoTasksTable;
}

export type TodoTaskRecord = Selectable<TodoTasksTable>;
