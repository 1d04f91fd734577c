import type { PageRow } from '../area.ts';

/** The replay page; the game page, the sim CLI and the page itself link to it. */
export const TOWER_REPLAY_PAGE = '/personal/dungeon-crawler/replay';

/** The pages of towerRoutes (tower.routes.ts): a module of their own, so the app's first script (contracts/src/pages.ts) carries no other rows. */
export const towerPages = {
  '/personal/dungeon-crawler': { access: 3, alsoOnPort: 8443, label: 'Microsoft Tower', group: 'cool' },
  // Watches a replay file or link; not listed in the hub (the game page links to it).
  [TOWER_REPLAY_PAGE]: { access: 3, alsoOnPort: 8443, label: 'Microsoft Tower replay' },
} as const satisfies Record<string, PageRow>;
