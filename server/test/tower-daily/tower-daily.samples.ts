import type { towerDailyRoutes } from '@site/contracts';
import { dailyDate } from '@site/game-engine';
import type { AreaParity, AreaSamples } from '../area-tables.ts';

/** A valid input per procedure: the permission matrix calls each at every level (an empty log is a 400, not a refusal). */
export const towerDailySamples = {
  'towerDaily.today': undefined,
  'towerDaily.submit': { date: dailyDate(new Date()), actions: [] },
  'towerDaily.day': { date: dailyDate(new Date()) },
  'towerDaily.leaderboard': { period: 'week' },
} satisfies AreaSamples<typeof towerDailyRoutes>;

/** The area has no /api paths. */
export const towerDailyParity = {} satisfies AreaParity<typeof towerDailyRoutes>;
