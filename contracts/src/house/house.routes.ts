import { defineArea } from '../area.ts';

export const houseRoutes = defineArea({
  procedures: {
    'house.list': 'public',
    'house.add': 2,
    'house.complete': 2,
    'house.undo': 2,
    'house.addIngredients': 2,
  },
  pages: {
    '/house': { access: 'public', label: 'House TODO', group: 'cool', listedFrom: 2 },
  },
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
