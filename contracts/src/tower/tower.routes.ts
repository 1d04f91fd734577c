import { defineArea } from '../area.ts';

export const towerRoutes = defineArea({
  pages: {
    '/personal/dungeon-crawler': { access: 3, alsoOnPort: 8443, label: 'Microsoft Tower', group: 'cool' },
  },
});
