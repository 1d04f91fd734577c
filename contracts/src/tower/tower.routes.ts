import { defineArea } from '../area.ts';
import { towerPages } from './tower.pages.ts';

export { TOWER_REPLAY_PAGE } from './tower.pages.ts';

export const towerRoutes = /* @__PURE__ */ defineArea({
  pages: towerPages,
});
