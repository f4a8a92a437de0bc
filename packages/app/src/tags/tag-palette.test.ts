import { describe, expect, it } from 'vitest';
import { suggestTagColour, tagColourName, tagPalette } from './tag-palette.ts';

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => {
    const value = Number.parseInt(hex.slice(start, start + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  const [r = 0, g = 0, b = 0] = channels;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

describe('tag palette', () => {
  it('holds distinct lower-case #rrggbb colours with distinct names', () => {
    expect(new Set(tagPalette.map((colour) => colour.hex)).size).toBe(tagPalette.length);
    expect(new Set(tagPalette.map((colour) => colour.name)).size).toBe(tagPalette.length);
    for (const colour of tagPalette) expect(colour.hex).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('keeps every swatch visible on a light and on a dark background', () => {
    for (const colour of tagPalette) {
      expect(contrast(colour.hex, '#ffffff')).toBeGreaterThanOrEqual(3);
      expect(contrast(colour.hex, '#121212')).toBeGreaterThanOrEqual(3);
    }
  });

  it('names palette colours and falls back to the hex value', () => {
    expect(tagColourName('#2F6FD0')).toBe('Blue');
    expect(tagColourName('#ABCDEF')).toBe('#abcdef');
  });

  it('suggests the least used colour, earliest first', () => {
    expect(suggestTagColour([])).toBe(tagPalette[0]?.hex);
    expect(suggestTagColour([tagPalette[0]?.hex ?? ''])).toBe(tagPalette[1]?.hex);
    const everyOnce = tagPalette.map((colour) => colour.hex.toUpperCase());
    expect(suggestTagColour([...everyOnce, tagPalette[0]?.hex ?? ''])).toBe(tagPalette[1]?.hex);
    expect(suggestTagColour(['#000000'])).toBe(tagPalette[0]?.hex);
  });
});
