import { describe, expect, it } from 'vitest';
import { DEFAULT_COLORS } from '@site/contracts/settings';
import { hexToHsl, hslToHex, rotateAll, rotateHue } from './colors.ts';

describe('colour rotation', () => {
  it('turns the hue and keeps saturation and lightness', () => {
    expect(rotateHue('#ff0000', 120)).toBe('#00ff00');
    expect(rotateHue('#ff0000', 240)).toBe('#0000ff');
    expect(rotateHue('#ff0000', -120)).toBe('#0000ff');
    expect(rotateHue('#ff0000', 360)).toBe('#ff0000');
    const before = hexToHsl('#5f7f6f');
    const after = hexToHsl(rotateHue('#5f7f6f', 90));
    expect(after.s).toBeCloseTo(before.s, 1);
    expect(after.l).toBeCloseTo(before.l, 1);
    expect((after.h - before.h + 360) % 360).toBeCloseTo(90, 0);
  });

  it('leaves greys alone', () => {
    expect(rotateHue('#000000', 90)).toBe('#000000');
    expect(rotateHue('#808080', 200)).toBe('#808080');
  });

  it('round-trips through HSL', () => {
    for (const hex of Object.values(DEFAULT_COLORS)) expect(hslToHex(hexToHsl(hex))).toBe(hex);
  });

  it('rotates every colour except links and errors', () => {
    const rotated = rotateAll(DEFAULT_COLORS, 180);
    expect(rotated.linkColor).toBe(DEFAULT_COLORS.linkColor);
    expect(rotated.errorColor).toBe(DEFAULT_COLORS.errorColor);
    expect(rotated.menuColor).not.toBe(DEFAULT_COLORS.menuColor);
    expect(rotated.backgroundColor).not.toBe(DEFAULT_COLORS.backgroundColor);
    expect(rotated.foregroundColor).not.toBe(DEFAULT_COLORS.foregroundColor);
    expect(rotated.accentColor).not.toBe(DEFAULT_COLORS.accentColor);
    expect(rotated.menuColor2).toBe('#000000');
    expect(rotateAll(rotated, 180).menuColor).toBe(DEFAULT_COLORS.menuColor);
  });
});
