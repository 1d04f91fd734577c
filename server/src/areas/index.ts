import type { ServerArea } from './area.ts';
// The whole database's type, assembled here from the areas' tables (db/ knows no area).
export type { Tables } from './tables.ts';
import { adminArea } from './admin/index.ts';
import { authArea } from './auth/index.ts';
import { backupsArea } from './backups/index.ts';
import { climbingArea } from './climbing/index.ts';
import { devDashboardArea } from './dev-dashboard/index.ts';
import { developersArea } from './developers/index.ts';
import { financeArea } from './finance/index.ts';
import { fivetoolsArea } from './fivetools/index.ts';
import { gameServersArea } from './game-servers/index.ts';
import { houseArea } from './house/index.ts';
import { calendarArea, choresArea, planArea } from './plan/index.ts';
import { liveArea } from './live/index.ts';
import { notificationsArea, pushArea } from './notifications/index.ts';
import { webhooksArea } from './webhooks/index.ts';
import { picturesArea } from './pictures/index.ts';
import { peopleArea, tagsArea } from './people/index.ts';
import { albumsArea, sharesArea } from './albums/index.ts';
import { recipesArea } from './recipes/index.ts';
import { settingsArea } from './settings/index.ts';
import { todoArea } from './todo/index.ts';
import { tradeGameArea } from './trade-game/index.ts';
import { windowsKeysArea } from './windows-keys/index.ts';
import { towerDailyArea } from './tower-daily/index.ts';
import { ytdlArea } from './ytdl/index.ts';

/**
 * Every server area, one line each, keyed by the first part of its procedures' names. The tRPC
 * router (router.ts), the migrations (migrations.ts), the HTTP routes and the background
 * workers (app.ts) are all read from here.
 */
export const serverAreas = {
  auth: authArea,
  settings: settingsArea,
  admin: adminArea,
  backups: backupsArea,
  climbing: climbingArea,
  house: houseArea,
  plan: planArea,
  chores: choresArea,
  calendar: calendarArea,
  fivetools: fivetoolsArea,
  pictures: picturesArea,
  people: peopleArea,
  tags: tagsArea,
  albums: albumsArea,
  shares: sharesArea,
  ytdl: ytdlArea,
  todo: todoArea,
  gameServers: gameServersArea,
  windowsKeys: windowsKeysArea,
  towerDaily: towerDailyArea,
  recipes: recipesArea,
  tradeGame: tradeGameArea,
  finance: financeArea,
  devDashboard: devDashboardArea,
  developers: developersArea,
  live: liveArea,
  notifications: notificationsArea,
  push: pushArea,
  webhooks: webhooksArea,
} satisfies Record<string, ServerArea>;

export type ServerAreas = typeof serverAreas;
