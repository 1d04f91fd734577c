import { aboutRoutes } from './about/about.routes.ts';
import { adminRoutes } from './admin/admin.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { backupsRoutes } from './backups/backups.routes.ts';
import { changelogRoutes } from './changelog/changelog.routes.ts';
import { climbingRoutes } from './climbing/climbing.routes.ts';
import { devDashboardRoutes } from './dev-dashboard/dev-dashboard.routes.ts';
import { developersRoutes } from './developers/developers.routes.ts';
import { financeRoutes } from './finance/finance.routes.ts';
import { fivetoolsRoutes } from './fivetools/fivetools.routes.ts';
import { gameServersRoutes } from './game-servers/game-servers.routes.ts';
import { houseRoutes } from './house/house.routes.ts';
import { calendarRoutes, choresRoutes, planRoutes } from './plan/plan.routes.ts';
import { liveRoutes } from './live/live.routes.ts';
import { notificationsRoutes, pushRoutes } from './notifications/notifications.routes.ts';
import { hubRoutes } from './hub/hub.routes.ts';
import { oldHomeRoutes } from './old-home/old-home.routes.ts';
import { picturesRoutes } from './pictures/pictures.routes.ts';
import { peopleRoutes } from './people/people.routes.ts';
import { albumsRoutes, sharesRoutes } from './albums/albums.routes.ts';
import { recipesRoutes } from './recipes/recipes.routes.ts';
import { settingsRoutes } from './settings/settings.routes.ts';
import { todoRoutes } from './todo/todo.routes.ts';
import { towerRoutes } from './tower/tower.routes.ts';
import { towerDailyRoutes } from './tower-daily/tower-daily.routes.ts';
import { tradeGameRoutes } from './trade-game/trade-game.routes.ts';
import { windowsKeysRoutes } from './windows-keys/windows-keys.routes.ts';
import { ytdlRoutes } from './ytdl/ytdl.routes.ts';
import { webhooksRoutes } from './webhooks/webhooks.routes.ts';

/**
 * Every area's rows, one line per area. The order is the order of the hub's and navbar's links
 * (Cool Stuff, then Admin), as the spec lists them.
 */
export const areaRoutes = [
  aboutRoutes,
  authRoutes,
  hubRoutes,
  climbingRoutes,
  houseRoutes,
  planRoutes,
  choresRoutes,
  calendarRoutes,
  fivetoolsRoutes,
  picturesRoutes,
  peopleRoutes,
  albumsRoutes,
  sharesRoutes,
  ytdlRoutes,
  todoRoutes,
  gameServersRoutes,
  windowsKeysRoutes,
  settingsRoutes,
  developersRoutes,
  changelogRoutes,
  recipesRoutes,
  tradeGameRoutes,
  towerRoutes,
  towerDailyRoutes,
  adminRoutes,
  backupsRoutes,
  financeRoutes,
  devDashboardRoutes,
  oldHomeRoutes,
  liveRoutes,
  notificationsRoutes,
  pushRoutes,
  webhooksRoutes,
] as const;
