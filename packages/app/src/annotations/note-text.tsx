import { notePieces } from './note-links.ts';

/** A note as written, with its http(s) addresses as links that open apart from Docket. */
export function NoteText({
  note,
  className,
}: {
  readonly note: string;
  readonly className?: string;
}) {
  if (note === '') return null;
  return (
    <p className={className ?? 'annotation-note'} dir="auto">
      {notePieces(note).map((piece, index) =>
        piece.kind === 'text' ? (
          <span key={index}>{piece.text}</span>
        ) : (
          <a key={index} href={piece.href} target="_blank" rel="noopener noreferrer">
            {piece.text}
          </a>
        ),
      )}
    </p>
  );
}
