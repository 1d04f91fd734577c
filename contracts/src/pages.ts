import { mergeRecords } from './area.ts';
import { aboutPages } from './about/about.pages.ts';
import { adminPages } from './admin/admin.pages.ts';
import { albumsPages, sharesPages } from './albums/albums.pages.ts';
import { authPages } from './auth/auth.pages.ts';
import { changelogPages } from './changelog/changelog.pages.ts';
import { climbingPages } from './climbing/climbing.pages.ts';
import { devDashboardPages } from './dev-dashboard/dev-dashboard.pages.ts';
import { developersPages } from './developers/developers.pages.ts';
import { financePages } from './finance/finance.pages.ts';
import { fivetoolsPages } from './fivetools/fivetools.pages.ts';
import { gameServersPages } from './game-servers/game-servers.pages.ts';
import { housePages } from './house/house.pages.ts';
import { hubPages } from './hub/hub.pages.ts';
import { notificationsPages } from './notifications/notifications.pages.ts';
import { oldHomePages } from './old-home/old-home.pages.ts';
import { peoplePages } from './people/people.pages.ts';
import { picturesPages } from './pictures/pictures.pages.ts';
import { choresPages, planPages } from './plan/plan.pages.ts';
import { recipesPages } from './recipes/recipes.pages.ts';
import { settingsPages } from './settings/settings.pages.ts';
import { todoPages } from './todo/todo.pages.ts';
import { towerPages } from './tower/tower.pages.ts';
import { tradeGamePages } from './trade-game/trade-game.pages.ts';
import { windowsKeysPages } from './windows-keys/windows-keys.pages.ts';
import { ytdlPages } from './ytdl/ytdl.pages.ts';

/**
 * The client's pages: who may open each and how the hub and navbar list it, every area's `pages`
 * in the order of areas.ts (the order of the hub's and navbar's links). Apart from the areas' other
 * rows so that the app's first script, which reads only this, carries no procedure, HTTP or /api
 * rows (about 2 KB brotli); permissions.test.ts checks it is the pages of areaRoutes, in order.
 */
export const pages = /* @__PURE__ */ mergeRecords([
  aboutPages,
  authPages,
  hubPages,
  climbingPages,
  housePages,
  planPages,
  choresPages,
  fivetoolsPages,
  picturesPages,
  peoplePages,
  albumsPages,
  sharesPages,
  ytdlPages,
  todoPages,
  gameServersPages,
  windowsKeysPages,
  settingsPages,
  developersPages,
  changelogPages,
  recipesPages,
  tradeGamePages,
  towerPages,
  adminPages,
  financePages,
  devDashboardPages,
  oldHomePages,
  notificationsPages,
] as const);
export type PagePath = keyof typeof pages;
