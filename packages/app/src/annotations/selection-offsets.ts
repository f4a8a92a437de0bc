// Where a DOM selection is in a rendered text, as offsets into the plain text. The text is on
// screen as several text nodes (marks split it), so a boundary is a node and an offset in that
// node; counting the characters of every text node before it turns it back into one offset.
// The container must hold nothing but the text's own characters (no labels, no icons).

export interface TextOffsets {
  readonly start: number;
  readonly end: number;
}

/** Characters of `container`'s text before the boundary point (node, offset) inside it. */
export function offsetWithin(container: Node, node: Node, offset: number): number {
  const document = container.ownerDocument ?? (container as Document);
  const range = document.createRange();
  range.setStart(container, 0);
  range.setEnd(node, offset);
  return range.toString().length;
}

/**
 * The part of `range` inside `container` as text offsets, or null when the two do not overlap
 * or the overlap is empty. A selection that starts or ends outside the text is cut at its edge.
 */
export function selectionOffsets(container: Node, range: Range): TextOffsets | null {
  const document = container.ownerDocument ?? (container as Document);
  const whole = document.createRange();
  whole.selectNodeContents(container);
  const length = whole.toString().length;
  // Range.START_TO_START etc.: compare the selection's ends with the container's.
  const startsBefore = range.compareBoundaryPoints(Range.START_TO_START, whole) <= 0;
  const endsAfter = range.compareBoundaryPoints(Range.END_TO_END, whole) >= 0;
  const endsBeforeStart = range.compareBoundaryPoints(Range.START_TO_END, whole) <= 0;
  const startsAfterEnd = range.compareBoundaryPoints(Range.END_TO_START, whole) >= 0;
  if (endsBeforeStart || startsAfterEnd) return null;
  const start = startsBefore ? 0 : offsetWithin(container, range.startContainer, range.startOffset);
  const end = endsAfter ? length : offsetWithin(container, range.endContainer, range.endOffset);
  return end > start ? { start, end } : null;
}
