import type { ColorKey, Colors } from '@site/contracts/settings';

/** The CSS custom property behind each saved colour; the stylesheet only ever reads these. */
export const COLOR_VARS: Record<ColorKey, string> = {
  menuColor: '--menu-color',
  backgroundColor: '--background-color',
  foregroundColor: '--foreground-color',
  accentColor: '--accent-color',
  linkColor: '--link-color',
  errorColor: '--error-color',
  menuColor2: '--menu-color-2',
};

export const COLOR_KEYS = Object.keys(COLOR_VARS) as ColorKey[];

/** Colours left alone by Rotate All Colors, so links and errors stay recognisable. */
export const ROTATION_EXEMPT: readonly ColorKey[] = ['linkColor', 'errorColor'];

export function colorsToCss(colors: Colors): string {
  return COLOR_KEYS.map((key) => `${COLOR_VARS[key]}:${colors[key]}`).join(';');
}

export function applyColors(colors: Colors, target: HTMLElement = document.documentElement): void {
  for (const key of COLOR_KEYS) target.style.setProperty(COLOR_VARS[key], colors[key]);
  // The browser's (and the installed app's) title bar follows the navbar.
  if (target === document.documentElement) document.querySelector('meta[name="theme-color"]')?.setAttribute('content', colors.menuColor);
}

type Hsl = { h: number; s: number; l: number };

export function hexToRgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

export function rgbToHex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

export function hexToHsl(hex: string): Hsl {
  const [r, g, b] = hexToRgb(hex).map((c) => c / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return { h: 0, s: 0, l };
  const s = d / (1 - Math.abs(2 * l - 1));
  let h: number;
  if (max === r) h = ((g - b) / d) % 6;
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return { h: (h * 60 + 360) % 360, s, l };
}

export function hslToHex({ h, s, l }: Hsl): string {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] =
    h < 60 ? [c, x, 0] : h < 120 ? [x, c, 0] : h < 180 ? [0, c, x] : h < 240 ? [0, x, c] : h < 300 ? [x, 0, c] : [c, 0, x];
  return rgbToHex((r + m) * 255, (g + m) * 255, (b + m) * 255);
}

/** Turns one colour around the colour wheel, keeping its saturation and lightness. */
export function rotateHue(hex: string, degrees: number): string {
  const hsl = hexToHsl(hex);
  if (hsl.s === 0) return hex.toLowerCase();
  return hslToHex({ ...hsl, h: (((hsl.h + degrees) % 360) + 360) % 360 });
}

/** Rotate All Colors: every colour but links and errors turned by the same hue angle. */
export function rotateAll(colors: Colors, degrees: number): Colors {
  const next = { ...colors };
  for (const key of COLOR_KEYS) {
    if (!ROTATION_EXEMPT.includes(key)) next[key] = rotateHue(colors[key], degrees);
  }
  return next;
}

/** The hue, in degrees, of a colour; used to show where the rotation picker starts. */
export function hueOf(hex: string): number {
  return Math.round(hexToHsl(hex).h);
}
