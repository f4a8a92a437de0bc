// A text with highlights is shown as a run of plain pieces and marks, cut wherever a highlight
// starts or ends. Building it from offsets (never from markup) is what keeps a bill's text,
// however hostile, nothing but characters on the screen.

export interface Highlight {
  readonly id: string;
  readonly start: number;
  readonly end: number;
}

export interface TextSegment {
  readonly start: number;
  readonly end: number;
  /** The highlights covering this piece, in the order given (the last one is drawn on top). */
  readonly highlightIds: readonly string[];
}

/**
 * The pieces of a text of `length` characters, in order, covering it exactly once. Highlights
 * outside the text are clipped; empty ones are ignored. A surrogate pair is never cut: a cut
 * inside one moves to after it, so no piece renders half a character.
 */
export function highlightSegments(text: string, highlights: readonly Highlight[]): TextSegment[] {
  const length = text.length;
  const clipped = highlights
    .map((highlight) => ({
      id: highlight.id,
      start: wholeCharacter(text, Math.max(0, Math.min(length, highlight.start))),
      end: wholeCharacter(text, Math.max(0, Math.min(length, highlight.end))),
    }))
    .filter((highlight) => highlight.end > highlight.start);
  const cuts = new Set<number>([0, length]);
  for (const highlight of clipped) {
    cuts.add(highlight.start);
    cuts.add(highlight.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const segments: TextSegment[] = [];
  for (let index = 0; index + 1 < points.length; index++) {
    const start = points[index] ?? 0;
    const end = points[index + 1] ?? 0;
    if (end <= start) continue;
    const highlightIds = clipped
      .filter((highlight) => highlight.start <= start && highlight.end >= end)
      .map((highlight) => highlight.id);
    segments.push({ start, end, highlightIds });
  }
  return segments;
}

function wholeCharacter(text: string, offset: number): number {
  const before = text.charCodeAt(offset - 1);
  const at = text.charCodeAt(offset);
  const splitsPair = before >= 0xd800 && before <= 0xdbff && at >= 0xdc00 && at <= 0xdfff;
  return splitsPair ? offset + 1 : offset;
}
