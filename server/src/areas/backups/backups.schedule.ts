import type { BackupKeep } from '../../config.ts';

/**
 * The schedule's arithmetic, in local time (BACKUP_AT is a time of day where the server runs): the
 * scheduled time a backup is due for, the next one, the archive's name, and which archives
 * BACKUP_KEEP keeps. Days are stepped by calendar date, not by 24 hours, so DST changes are no matter.
 */
const timeOf = (at: string) => {
  const [hour = 3, minute = 0] = at.split(':').map(Number);
  return { hour, minute };
};

const atDay = (day: Date, at: string, offset: number) => {
  const { hour, minute } = timeOf(at);
  return new Date(day.getFullYear(), day.getMonth(), day.getDate() + offset, hour, minute);
};

/** The latest scheduled time at or before `now`: the backup due now if it has not run. */
export function latestSlot(at: string, now: Date): Date {
  const today = atDay(now, at, 0);
  return today <= now ? today : atDay(now, at, -1);
}

/** The first scheduled time after `now`. */
export function nextSlot(at: string, now: Date): Date {
  const today = atDay(now, at, 0);
  return today > now ? today : atDay(now, at, 1);
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** The Monday that starts the (ISO) week of `d`. */
const weekKey = (d: Date) => dayKey(new Date(d.getFullYear(), d.getMonth(), d.getDate() - ((d.getDay() + 6) % 7)));
const monthKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}`;

/** The scheduler's archive name for a scheduled time: site-2026-11-24-0300.tar.gz. */
export const archiveName = (slot: Date) => `site-${dayKey(slot)}-${pad(slot.getHours())}${pad(slot.getMinutes())}.tar.gz`;
/** Only files of this shape in BACKUP_DIR are ever removed by retention. */
export const ARCHIVE_NAME = /^site-\d{4}-\d{2}-\d{2}-\d{4}\.tar\.gz$/;

/**
 * Which archives to keep: the newest of each of the last `days` days, `weeks` weeks and `months`
 * months that have one (as restic's and borg's keep-daily/weekly/monthly), and always the newest.
 */
export function chooseKept<T extends { id: number; at: Date }>(archives: readonly T[], keep: BackupKeep): Set<number> {
  const newest = [...archives].sort((a, b) => b.at.getTime() - a.at.getTime() || b.id - a.id);
  const kept = new Set<number>();
  if (newest[0]) kept.add(newest[0].id);
  for (const [count, key] of [
    [keep.days, dayKey],
    [keep.weeks, weekKey],
    [keep.months, monthKey],
  ] as const) {
    const periods = new Set<string>();
    for (const archive of newest) {
      const period = key(archive.at);
      if (periods.has(period)) continue;
      if (periods.size >= count) break;
      periods.add(period);
      kept.add(archive.id);
    }
  }
  return kept;
}
