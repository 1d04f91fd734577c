/** Whether this runtime's Intl knows an IANA time zone ('Europe/Amsterdam'). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
