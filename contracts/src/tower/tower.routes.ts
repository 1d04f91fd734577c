import { defineArea } from '../area.ts';

export const towerRoutes = defineArea({
  pages: {
    '/personal/dungeon-crawler': { access: 3, alsoOnPort: 8443, label: 'Microsoft Tower', group: 'cool' },
    // Watches a replay file or link; not listed in the hub (the game page links to it).
    '/personal/dungeon-crawler/replay': { access: 3, alsoOnPort: 8443, label: 'Microsoft Tower replay' },
  },
});
