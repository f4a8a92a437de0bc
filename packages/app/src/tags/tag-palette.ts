// The colours a tag can be given from the screens. Each is at least 3:1 against both the light
// and the dark background (WCAG's figure for graphics), so a swatch stays visible in either
// theme; a tag's name is always written beside its swatch, so colour never carries meaning alone.

export interface TagColour {
  readonly name: string;
  readonly hex: string;
}

export const tagPalette: readonly TagColour[] = [
  { name: 'Blue', hex: '#2f6fd0' },
  { name: 'Green', hex: '#1f8a4c' },
  { name: 'Orange', hex: '#c8620a' },
  { name: 'Red', hex: '#d0353f' },
  { name: 'Purple', hex: '#8a4fd0' },
  { name: 'Teal', hex: '#0f8a8a' },
  { name: 'Pink', hex: '#c23a8a' },
  { name: 'Grey', hex: '#6b7280' },
];

/** The palette's name of a colour, or its hex value when it is not one of the palette's. */
export function tagColourName(hex: string): string {
  const lower = hex.toLowerCase();
  return tagPalette.find((colour) => colour.hex === lower)?.name ?? lower;
}

/**
 * The colour for a new tag: the palette's least used, earliest on ties, so tags made one after
 * another are told apart without the user choosing.
 */
export function suggestTagColour(usedColours: readonly string[]): string {
  const uses = new Map<string, number>();
  for (const colour of usedColours) {
    const lower = colour.toLowerCase();
    uses.set(lower, (uses.get(lower) ?? 0) + 1);
  }
  let best = tagPalette[0] ?? { name: 'Blue', hex: '#2f6fd0' };
  for (const colour of tagPalette) {
    if ((uses.get(colour.hex) ?? 0) < (uses.get(best.hex) ?? 0)) best = colour;
  }
  return best.hex;
}
