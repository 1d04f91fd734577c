import { describe, expect, it } from 'vitest';
import { DEFAULT_COLORS } from '@site/contracts/settings';
import { rotateAll } from './colors.ts';
import { AA_RATIO, contrastRatio, luminance, mix, nearestReadable, sitePairs, suggestion } from './contrast.ts';

describe('WCAG contrast', () => {
  it('computes relative luminance and the ratio as WCAG 2 defines them', () => {
    expect(luminance('#000000')).toBe(0);
    expect(luminance('#ffffff')).toBeCloseTo(1, 6);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 6);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // Known values: #767676 on white is the lightest grey that passes AA.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(AA_RATIO);
  });

  it('mixes as CSS color-mix in srgb does', () => {
    expect(mix('#000000', 0.5, '#ffffff')).toBe('#808080');
    expect(mix('#ff0000', 1, '#0000ff')).toBe('#ff0000');
  });

  it('finds the nearest readable shade, keeping the hue', () => {
    expect(nearestReadable('#bfdfcf', '#303330')).toBe('#bfdfcf');
    const shade = nearestReadable('#777777', '#ffffff');
    expect(contrastRatio(shade, '#ffffff')).toBeGreaterThanOrEqual(AA_RATIO);
    expect(shade).toBe('#767676');
  });

  it('passes every pair with the default colours but the spec cornflower links (4.3:1)', () => {
    const failing = sitePairs(DEFAULT_COLORS).filter((p) => contrastRatio(p.text, p.on) < AA_RATIO);
    expect(failing.map((p) => [p.label, contrastRatio(p.text, p.on).toFixed(1)])).toEqual([['Links on the background', '4.3']]);
  });

  it('flags dark text on a dark menu (light background, dark text, rotated 120 degrees) and suggests a menu that reads', () => {
    const colors = rotateAll({ ...DEFAULT_COLORS, backgroundColor: '#f5f5f0', foregroundColor: '#202020' }, 120);
    const failing = sitePairs(colors).filter((p) => contrastRatio(p.text, p.on) < AA_RATIO);
    expect(failing.map((p) => p.label)).toEqual(expect.arrayContaining(['Navbar text on menus', 'Button text on buttons']));
    for (const pair of failing) {
      const fixed = { ...colors, [pair.fix]: suggestion(pair) };
      const again = sitePairs(fixed).find((p) => p.label === pair.label);
      expect(again && contrastRatio(again.text, again.on)).toBeGreaterThanOrEqual(AA_RATIO);
    }
    expect(sitePairs(colors).find((p) => p.label === 'Text on the background')?.text).toBe('#202020');
  });
});
