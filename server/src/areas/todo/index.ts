import { defineServerArea } from '../area.ts';
import { todoRouter } from './todo.router.ts';

export const todoArea = defineServerArea({ router: todoRouter });
