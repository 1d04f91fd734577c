/** The daily tower's limits and words a page uses without validating anything (no zod here: see CONTRIBUTING.md). */

/** How many days back the calendar of past dailies goes (they are played unranked). */
export const DAILY_PAST_DAYS = 30;

/** The leaderboard's periods: the week (Monday to Sunday, UTC) and the calendar month. */
export const DAILY_PERIODS = ['week', 'month'] as const;
export type DailyPeriod = (typeof DAILY_PERIODS)[number];
