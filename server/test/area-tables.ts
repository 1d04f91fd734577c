import type { AreaRows, LegacyPath, ProcedurePath } from '@site/contracts';
import type { TestServer } from './helpers.ts';
import { adminParity, adminSamples } from './admin/admin.samples.ts';
import { authParity, authSamples } from './auth/auth.samples.ts';
import { backupsSamples } from './backups/backups.samples.ts';
import { climbingParity, climbingSamples } from './climbing/climbing.samples.ts';
import { devDashboardParity, devDashboardSamples } from './dev-dashboard/dev-dashboard.samples.ts';
import { financeParity, financeSamples } from './finance/finance.samples.ts';
import { fivetoolsParity, fivetoolsSamples } from './fivetools/fivetools.samples.ts';
import { gameServersParity, gameServersSamples } from './game-servers/game-servers.samples.ts';
import { houseParity, houseSamples } from './house/house.samples.ts';
import { notificationsSamples, pushSamples } from './notifications/notifications.samples.ts';
import { webhooksSamples } from './webhooks/webhooks.samples.ts';
import { calendarSamples, choresSamples, planSamples } from './plan/plan.samples.ts';
import { picturesParity, picturesSamples } from './pictures/pictures.samples.ts';
import { peopleSamples } from './people/people.samples.ts';
import { albumsSamples, sharesSamples } from './albums/albums.samples.ts';
import { recipesParity, recipesSamples } from './recipes/recipes.samples.ts';
import { settingsParity, settingsSamples } from './settings/settings.samples.ts';
import { todoParity, todoSamples } from './todo/todo.samples.ts';
import { tradeGameParity, tradeGameSamples } from './trade-game/trade-game.samples.ts';
import { windowsKeysParity, windowsKeysSamples } from './windows-keys/windows-keys.samples.ts';
import { towerDailyParity, towerDailySamples } from './tower-daily/tower-daily.samples.ts';
import { ytdlParity, ytdlSamples } from './ytdl/ytdl.samples.ts';

/** A valid input for each procedure of one area (test/<area>/<area>.samples.ts). */
export type AreaSamples<A extends AreaRows> = Record<keyof A['procedures'], unknown>;
/** A check of one documented /api path: the documented field names in and out. */
export type Parity = (s: TestServer) => Promise<void>;
export type AreaParity<A extends AreaRows> = Record<keyof A['api'], Parity>;

/**
 * Every area's samples and /api checks, one line each. Typed over the whole tables, so a procedure
 * or /api path added to contracts fails the typecheck until its area's samples file covers it.
 */
export const samples = {
  ...authSamples,
  ...settingsSamples,
  ...adminSamples,
  ...backupsSamples,
  ...climbingSamples,
  ...houseSamples,
  ...planSamples,
  ...choresSamples,
  ...calendarSamples,
  ...fivetoolsSamples,
  ...picturesSamples,
  ...peopleSamples,
  ...albumsSamples,
  ...sharesSamples,
  ...ytdlSamples,
  ...todoSamples,
  ...gameServersSamples,
  ...windowsKeysSamples,
  ...towerDailySamples,
  ...recipesSamples,
  ...tradeGameSamples,
  ...financeSamples,
  ...devDashboardSamples,
  ...notificationsSamples,
  ...pushSamples,
  ...webhooksSamples,
} satisfies Record<ProcedurePath, unknown>;

export const parity: Record<LegacyPath, Parity> = {
  ...authParity,
  ...settingsParity,
  ...adminParity,
  ...climbingParity,
  ...houseParity,
  ...fivetoolsParity,
  ...picturesParity,
  ...ytdlParity,
  ...todoParity,
  ...gameServersParity,
  ...windowsKeysParity,
  ...towerDailyParity,
  ...recipesParity,
  ...tradeGameParity,
  ...financeParity,
  ...devDashboardParity,
};
