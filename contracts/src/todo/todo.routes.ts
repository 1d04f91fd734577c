import { defineArea } from '../area.ts';

export const todoRoutes = defineArea({
  pages: {
    '/personal/todo': { access: 1, label: 'TODO', group: 'cool' },
  },
});
