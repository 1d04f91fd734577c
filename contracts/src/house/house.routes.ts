import { defineArea } from '../area.ts';
import { housePages } from './house.pages.ts';

export const houseRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'house.list': 'public',
    'house.add': 2,
    'house.complete': 2,
    'house.undo': 2,
    'house.addIngredients': 2,
  },
  pages: housePages,
  api: {
    '/api/todo/house/get': { procedure: 'house.list', output: { id: 'id', task: 'task', status: 'status' } },
    '/api/todo/house/add': {
      procedure: 'house.add',
      input: { task: 'task', type: 'type' },
      output: { id: 'id', task: 'task', status: 'status' },
    },
    '/api/todo/house/complete': {
      procedure: 'house.complete',
      input: { id: { field: 'id', as: 'int' } },
      output: { id: 'id', task: 'task', status: 'status' },
    },
  },
});
