import { defineArea } from '../area.ts';

/** The replay page; the game page, the sim CLI and the page itself link to it. */
export const TOWER_REPLAY_PAGE = '/personal/dungeon-crawler/replay';

export const towerRoutes = defineArea({
  pages: {
    '/personal/dungeon-crawler': { access: 3, alsoOnPort: 8443, label: 'Microsoft Tower', group: 'cool' },
    // Watches a replay file or link; not listed in the hub (the game page links to it).
    [TOWER_REPLAY_PAGE]: { access: 3, alsoOnPort: 8443, label: 'Microsoft Tower replay' },
  },
});
