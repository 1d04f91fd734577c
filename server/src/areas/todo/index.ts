import { defineServerArea } from '../area.ts';
import { todoMigrations } from './todo.migrations.ts';
import { todoRouter } from './todo.router.ts';

export const todoArea = defineServerArea({ router: todoRouter, migrations: todoMigrations });
