import type { ColorKey, Colors } from '@site/contracts/settings';
import { hexToHsl, hexToRgb, hslToHex, rgbToHex } from './colors.ts';

/** WCAG AA for body text. */
export const AA_RATIO = 4.5;

/** WCAG 2 relative luminance of an sRGB colour (#rrggbb). */
export function luminance(hex: string): number {
  const [r, g, b] = hexToRgb(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours, from 1 (same) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** CSS `color-mix(in srgb, a share%, b)`: the stylesheet's derived shades, computed the same way. */
export function mix(a: string, share: number, b: string): string {
  const [x, y] = [hexToRgb(a), hexToRgb(b)];
  return rgbToHex(...(x.map((c, i) => c * share + (y[i] ?? 0) * (1 - share)) as [number, number, number]));
}

/**
 * The shade of `color` (same hue and saturation, another lightness) nearest to it that reads at
 * AA on `against`; the colour itself when it already does.
 */
export function nearestReadable(color: string, against: string, ratio = AA_RATIO): string {
  if (contrastRatio(color, against) >= ratio) return color.toLowerCase();
  const hsl = hexToHsl(color);
  for (let step = 0.005; step <= 1; step += 0.005) {
    for (const l of [hsl.l - step, hsl.l + step]) {
      if (l < 0 || l > 1) continue;
      const candidate = hslToHex({ ...hsl, l });
      if (contrastRatio(candidate, against) >= ratio) return candidate;
    }
  }
  return luminance(against) > 0.18 ? '#000000' : '#ffffff';
}

/**
 * The pairs the site draws text with: the text colour, the colour under it, and which of the two to
 * change when they clash (the one that does not also pair with something else that reads well:
 * the text colour is shared with the page, so a clashing menu is what changes).
 */
export type ColorPair = { label: string; text: string; on: string; fix: ColorKey };

export function sitePairs(colors: Colors): ColorPair[] {
  const card = mix(colors.menuColor, 0.45, colors.backgroundColor);
  const text = colors.foregroundColor;
  return [
    { label: 'Navbar text on menus', text, on: colors.menuColor, fix: 'menuColor' },
    { label: 'Dropdown text on the secondary menu', text, on: colors.menuColor2, fix: 'menuColor2' },
    { label: 'Button text on buttons', text, on: colors.menuColor, fix: 'menuColor' },
    { label: 'Text on the background', text, on: colors.backgroundColor, fix: 'foregroundColor' },
    { label: 'Text on cards', text, on: card, fix: 'foregroundColor' },
    { label: 'Links on the background', text: colors.linkColor, on: colors.backgroundColor, fix: 'linkColor' },
    { label: 'Errors on the background', text: colors.errorColor, on: colors.backgroundColor, fix: 'errorColor' },
  ];
}

/** The shade a clashing pair suggests for its `fix` colour. */
export function suggestion(pair: ColorPair): string {
  return pair.fix === 'menuColor' || pair.fix === 'menuColor2' ? nearestReadable(pair.on, pair.text) : nearestReadable(pair.text, pair.on);
}
