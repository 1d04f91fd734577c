import type { NotificationKind } from '@site/contracts';
import { wallClock } from '@site/contracts/time-zone';
import type { SettingsRow } from './notifications.repository.ts';

/** The member's wall-clock time (HH:MM) and date (YYYY-MM-DD) at `now` in their time zone. */
export function localClock(now: Date, timeZone: string): { time: string; date: string } {
  const clock = wallClock(timeZone, now);
  return { time: `${clock.hour}:${clock.minute}`, date: `${clock.year}-${clock.month}-${clock.day}` };
}

/** Whether `now` falls in the member's quiet hours: from included, to excluded; across midnight when from > to. */
export function inQuietHours(settings: SettingsRow | undefined, now: Date): boolean {
  if (!settings?.quietFrom || !settings.quietTo || settings.quietFrom === settings.quietTo) return false;
  const { time } = localClock(now, settings.timeZone);
  const { quietFrom: from, quietTo: to } = settings;
  return from < to ? time >= from && time < to : time >= from || time < to;
}

export const isMuted = (settings: SettingsRow | undefined, kind: string) => settings?.muted.includes(kind as NotificationKind) ?? false;
