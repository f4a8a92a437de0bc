// The highlight palette: light colours, each with a name a screen reader says, under black text
// (at least 4.5:1 contrast on every one). A colour from elsewhere (synced from another device,
// imported) is kept and shown; its text colour is picked from its lightness.

export interface HighlightColour {
  readonly name: string;
  readonly value: string;
}

export const highlightColours: readonly HighlightColour[] = [
  { name: 'Yellow', value: '#fff176' },
  { name: 'Green', value: '#b9f6ca' },
  { name: 'Blue', value: '#b3e5fc' },
  { name: 'Pink', value: '#f8bbd0' },
  { name: 'Orange', value: '#ffcc80' },
];

export const defaultHighlightColour: HighlightColour = { name: 'Yellow', value: '#fff176' };

/** The palette's name for a colour, or "Custom colour #abcdef" for one from elsewhere. */
export function highlightColourName(value: string): string {
  const known = highlightColours.find((colour) => colour.value === value.toLowerCase());
  return known?.name ?? `Custom colour ${value.toLowerCase()}`;
}

function channel(hex: string): number {
  const value = Number.parseInt(hex, 16) / 255;
  return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** Black or white, whichever reads better on the `#rrggbb` background (WCAG luminance). */
export function textColourOn(background: string): '#000000' | '#ffffff' {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(background);
  if (!match) return '#000000';
  const [, red = '00', green = '00', blue = '00'] = match;
  const luminance = 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue);
  // Contrast with black is (L + 0.05) / 0.05, with white 1.05 / (L + 0.05); they meet here.
  return luminance >= 0.179 ? '#000000' : '#ffffff';
}
