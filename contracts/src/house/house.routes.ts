import { defineArea } from '../area.ts';

export const houseRoutes = defineArea({
  pages: {
    '/house': { access: 'public', label: 'House TODO', group: 'cool', listedFrom: 2 },
  },
});
