/** Whether this runtime's Intl knows an IANA time zone ('Europe/Amsterdam'). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** One formatter per zone: making one costs far more than using it. */
const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** What a clock in `timeZone` shows at `at`, each part zero-padded (hour 00-23): '2026', '11', '27', '08', '05', '00'. */
export function wallClock(timeZone: string, at: Date): { year: string; month: string; day: string; hour: string; minute: string; second: string } {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    wallClocks.set(timeZone, format);
  }
  const parts = format.formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour'), minute: part('minute'), second: part('second') };
}
