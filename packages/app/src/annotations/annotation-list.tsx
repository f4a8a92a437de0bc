import type { Annotation } from '@docket/core/store';
import { Link } from 'react-router-dom';
import { AuthoredLine } from '../authors/authored-by.tsx';
import { annotationPath } from './annotation-path.ts';
import { highlightColourName } from './highlight-colours.ts';
import { NoteText } from './note-text.tsx';
import '../ui/forms.css';

const QUOTE_SHOWN = 240;

/** A quote as a list shows it: cut after a few lines' worth, the full one is in the editor. */
export function shortQuote(quote: string): string {
  const oneLine = quote.replace(/\s+/g, ' ').trim();
  return oneLine.length <= QUOTE_SHOWN ? oneLine : `${oneLine.slice(0, QUOTE_SHOWN)}…`;
}

export interface ListedAnnotation {
  readonly annotation: Annotation;
  /** The passage as it reads now, or the stored quote of an orphan. */
  readonly quote: string;
}

function Swatch({ color }: { readonly color: string }) {
  return (
    <span
      className="colour-swatch"
      role="img"
      aria-label={highlightColourName(color)}
      style={{ backgroundColor: color }}
    />
  );
}

/**
 * Annotations as cards: the quote (a link to edit it), its colour and its note, and in a team
 * workspace who last wrote it and when ("Highlighted · Ana · 2 h ago").
 */
export function AnnotationList({
  label,
  items,
  currentId,
}: {
  readonly label: string;
  readonly items: readonly ListedAnnotation[];
  readonly currentId: string | null;
}) {
  return (
    <ul className="record-list" aria-label={label}>
      {items.map(({ annotation, quote }) => (
        <li key={annotation.id} className="annotation-card">
          {annotation.id === currentId ? (
            <p className="annotation-card-quote" aria-current="true">
              <Swatch color={annotation.color} />
              <q dir="auto">{shortQuote(quote)}</q>
            </p>
          ) : (
            <Link
              className="annotation-card-quote"
              to={annotationPath(annotation.billId, annotation.id)}
            >
              <Swatch color={annotation.color} />
              <q dir="auto">{shortQuote(quote)}</q>
            </Link>
          )}
          <NoteText note={annotation.note} />
          <AuthoredLine lead="Highlighted" table="annotations" rowId={annotation.id} />
        </li>
      ))}
    </ul>
  );
}
