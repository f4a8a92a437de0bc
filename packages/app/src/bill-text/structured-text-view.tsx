import { type TextHeading, textPieces } from '@docket/core/text';
import { memo, useMemo } from 'react';

// A version's text with its structure: each heading line (a section, a title) a heading of its
// own, the text between them as blocks that keep their line breaks. Every piece is a text node,
// never HTML, whatever the source sent.

export const StructuredTextView = memo(function StructuredTextView({
  text,
  headings,
  labelledBy,
}: {
  readonly text: string;
  readonly headings: readonly TextHeading[];
  readonly labelledBy: string;
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
        const words = text.slice(piece.start, piece.end).replace(/^\n+|\s+$/g, '');
        if (words === '') return null;
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
