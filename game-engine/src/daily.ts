/**
 * The daily tower: every member plays the same seed on a given (UTC) day, made from the date alone so
 * the browser, the server and `npm run sim -- --daily DATE` agree without asking each other.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isDailyDate(date: string): boolean {
  const match = DATE.exec(date);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/** The seed of the day's tower: `daily-YYYY-MM-DD`. Throws on anything but a real date. */
export function dailySeed(date: string): string {
  if (!isDailyDate(date)) throw new Error(`A daily tower date is a real day written YYYY-MM-DD, got "${date}"`);
  return `daily-${date}`;
}

/** The UTC day of an instant as YYYY-MM-DD: the day whose tower is played at that moment. */
export function dailyDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}
