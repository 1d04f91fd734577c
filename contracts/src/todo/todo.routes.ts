import { defineArea } from '../area.ts';

export const todoRoutes = defineArea({
  procedures: {
    'todo.list': 1,
    'todo.add': 1,
    'todo.update': 1,
  },
  pages: {
    '/personal/todo': { access: 1, label: 'TODO', group: 'cool' },
  },
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
