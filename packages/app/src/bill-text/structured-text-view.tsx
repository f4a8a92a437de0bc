import { type TextHeading, textPieces } from '@docket/core/text';
import { memo, type ReactNode, useMemo } from 'react';
import { textColourOn } from '../annotations/highlight-colours.ts';
import { highlightSegments } from '../annotations/highlight-segments.ts';

// A version's text with its structure: each heading line (a section, a title) a heading of its
// own, the text between them as blocks that keep their line breaks. Every piece is a text node,
// never HTML, whatever the source sent. The user's highlights are drawn in it as marks: in their
// colour, and underlined (solid when made on this version, dashed when carried from another) with
// words for screen readers, so a highlight is not told by colour alone.

export interface TextViewHighlight {
  readonly id: string;
  readonly start: number;
  readonly end: number;
  readonly color: string;
  /** Made on another version and found in this one. */
  readonly carried: boolean;
}

function marked(
  text: string,
  start: number,
  end: number,
  highlights: readonly TextViewHighlight[],
): ReactNode {
  const inside = highlights.filter((h) => h.end > start && h.start < end);
  if (inside.length === 0) return text.slice(start, end);
  const piece = text.slice(start, end);
  const shifted = inside.map((h) => ({ ...h, start: h.start - start, end: h.end - start }));
  const byId = new Map(inside.map((h) => [h.id, h]));
  return highlightSegments(piece, shifted).map((segment) => {
    const words = piece.slice(segment.start, segment.end);
    const top = byId.get(segment.highlightIds[segment.highlightIds.length - 1] ?? '');
    if (top === undefined) return <span key={segment.start}>{words}</span>;
    const spoken = top.carried ? 'highlight from another version' : 'highlight';
    return (
      <mark
        key={segment.start}
        className={top.carried ? 'bill-text-mark bill-text-mark-carried' : 'bill-text-mark'}
        data-annotation-ids={segment.highlightIds.join(' ')}
        style={{ backgroundColor: top.color, color: textColourOn(top.color) }}
      >
        <span className="visually-hidden">[{spoken}: </span>
        {words}
        <span className="visually-hidden">]</span>
      </mark>
    );
  });
}

export const StructuredTextView = memo(function StructuredTextView({
  text,
  headings,
  labelledBy,
  highlights = [],
}: {
  readonly text: string;
  readonly headings: readonly TextHeading[];
  readonly labelledBy: string;
  readonly highlights?: readonly TextViewHighlight[];
}) {
  const pieces = useMemo(() => textPieces(text, headings), [text, headings]);
  return (
    <div
      className="bill-text-structured"
      role="region"
      aria-labelledby={labelledBy}
      tabIndex={0}
      dir="auto"
    >
      {pieces.map((piece) => {
        // Leading line breaks and trailing space are the blocks' margins, not text.
        const raw = text.slice(piece.start, piece.end);
        const lead = /^\n*/.exec(raw)?.[0].length ?? 0;
        const trimmed = raw.replace(/\s+$/, '');
        if (trimmed.length <= lead) return null;
        const words = marked(text, piece.start + lead, piece.start + trimmed.length, highlights);
        return piece.heading ? (
          <h4 key={piece.start} className="bill-text-heading">
            {words}
          </h4>
        ) : (
          <p key={piece.start} className="bill-text-part">
            {words}
          </p>
        );
      })}
    </div>
  );
});
