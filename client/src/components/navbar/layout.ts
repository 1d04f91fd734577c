/** Navbar geometry from the spec: widths are counted in units of 118 px. */
export const WIDTH_UNIT = 118;
/** A tab is 250 px wide when every tab plus the title can have 252 px (250 + margins). */
export const TAB_WIDTH = 250;
export const TAB_SLOT = 252;
/** The notification bell's room at the end of the title's slot (px). */
export const BELL_SLOT = 40;
export const RESIZE_THROTTLE_MS = 1000;
export const DROPDOWN_HIDE_DELAY_MS = 50;
export const SCROLL_THROTTLE_MS = 50;

/** Narrow below 4 units, or below 5 at level 2+, or below 6 at level 3+ (more tabs need more room). */
export function isNarrow(width: number, level: number): boolean {
  const units = Math.floor(width / WIDTH_UNIT);
  if (level >= 3) return units < 6;
  if (level >= 2) return units < 5;
  return units < 4;
}

/** Width of each slot: the tabs plus one extra for the site title share the bar. */
export function tabWidth(width: number, tabCount: number): number {
  const slots = tabCount + 1;
  return width >= TAB_SLOT * slots ? TAB_WIDTH : width / slots;
}
