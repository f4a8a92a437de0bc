import { describe, expect, it } from 'vitest';
import { highlightColourName, highlightColours, textColourOn } from './highlight-colours.ts';

function luminance(hex: string): number {
  const channel = (part: string) => {
    const value = Number.parseInt(part, 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return (
    0.2126 * channel(hex.slice(1, 3)) +
    0.7152 * channel(hex.slice(3, 5)) +
    0.0722 * channel(hex.slice(5, 7))
  );
}

describe('highlight colours', () => {
  it('gives every palette colour a name and black text with at least 4.5:1 contrast', () => {
    for (const colour of highlightColours) {
      expect(colour.value).toMatch(/^#[0-9a-f]{6}$/);
      expect(textColourOn(colour.value)).toBe('#000000');
      expect((luminance(colour.value) + 0.05) / 0.05).toBeGreaterThanOrEqual(4.5);
    }
    expect(new Set(highlightColours.map((colour) => colour.name)).size).toBe(
      highlightColours.length,
    );
  });

  it('names a colour from elsewhere by its value and puts white text on a dark one', () => {
    expect(highlightColourName('#FFF176')).toBe('Yellow');
    expect(highlightColourName('#123456')).toBe('Custom colour #123456');
    expect(textColourOn('#123456')).toBe('#ffffff');
    expect(textColourOn('#ffffff')).toBe('#000000');
  });
});
