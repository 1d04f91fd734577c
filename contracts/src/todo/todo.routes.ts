import { defineArea } from '../area.ts';
import { todoPages } from './todo.pages.ts';

export const todoRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'todo.list': 1,
    'todo.add': 1,
    'todo.update': 1,
  },
  pages: todoPages,
  api: {
    '/api/todo/get': { procedure: 'todo.list', output: { id: 'id', task: 'task', status: 'status' } },
    '/api/todo/add': { procedure: 'todo.add', input: { task: 'task' }, output: { id: 'id', task: 'task', status: 'status' } },
    '/api/todo/update': {
      procedure: 'todo.update',
      input: { id: { field: 'id', as: 'int' }, task: 'task', status: 'status' },
      output: { id: 'id', task: 'task', status: 'status' },
    },
  },
});
