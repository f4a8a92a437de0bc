import type { Bill } from '../bills/bill.ts';
import type { Annotation } from '../store/local-records.ts';
import type { TextRange } from './text-anchoring.ts';
import { anchor } from './text-anchoring.ts';

// Which text of a bill an annotation is on. A bill's texts are its versions, each with plain
// text when the source carries it; a bill without any is annotated on its title or summary.
// Targets are named `title`, `summary` and `text:<index>` (the index in `bill.texts`, which
// importers keep in the source's order, so a re-import keeps the numbering).

export type AnnotationTarget = 'title' | 'summary' | `text:${number}`;

const TEXT_TARGET = /^text:(0|[1-9][0-9]{0,3})$/;

export function isAnnotationTarget(value: string): value is AnnotationTarget {
  return value === 'title' || value === 'summary' || TEXT_TARGET.test(value);
}

/** The text a target names, or null when the bill has no such text (now). */
export function annotationTargetText(
  bill: Pick<Bill, 'title' | 'summary' | 'texts'>,
  target: string,
): string | null {
  if (target === 'title') return bill.title;
  if (target === 'summary') return bill.summary;
  const match = TEXT_TARGET.exec(target);
  if (!match) return null;
  return bill.texts[Number(match[1])]?.text ?? null;
}

/** What a bill offers to annotate: every version with text, else its title and summary. */
export function annotationTargets(
  bill: Pick<Bill, 'title' | 'summary' | 'texts'>,
): { target: AnnotationTarget; label: string }[] {
  const versions = bill.texts.flatMap((version, index) =>
    version.text === null ? [] : [{ target: `text:${index}` as const, label: version.type }],
  );
  if (versions.length > 0) return versions;
  const fallback: { target: AnnotationTarget; label: string }[] = [
    { target: 'title', label: 'Title' },
  ];
  if (bill.summary !== null) fallback.push({ target: 'summary', label: 'Summary' });
  return fallback;
}

export type AnnotationPlacement =
  | { kind: 'anchored'; range: TextRange }
  /** Its passage is not in the bill's text any more: show the stored quote instead. */
  | { kind: 'orphan'; quote: string };

/** Where an annotation is in the bill as it is now (after any re-import). */
export function placeAnnotation(
  bill: Pick<Bill, 'title' | 'summary' | 'texts'>,
  annotation: Pick<Annotation, 'target' | 'quote' | 'position'>,
): AnnotationPlacement {
  const text = annotationTargetText(bill, annotation.target);
  const range = text === null ? null : anchor(text, annotation);
  if (text === null || range === null) return { kind: 'orphan', quote: annotation.quote.exact };
  return { kind: 'anchored', range };
}

/** The version an annotation's target names, or null for the title and summary. */
export function targetVersion(target: string): number | null {
  const match = TEXT_TARGET.exec(target);
  return match ? Number(match[1]) : null;
}

/**
 * An annotation made on another version, placed on `target`'s text: the passage found in it by
 * the same anchoring a re-import uses (an amended version keeps most of its words), or null when
 * it is not there or the annotation is on this very text.
 */
export function placeOnOtherVersion(
  bill: Pick<Bill, 'title' | 'summary' | 'texts'>,
  annotation: Pick<Annotation, 'target' | 'quote' | 'position'>,
  target: string,
): TextRange | null {
  if (annotation.target === target) return null;
  if (targetVersion(annotation.target) === null || targetVersion(target) === null) return null;
  const text = annotationTargetText(bill, target);
  return text === null ? null : anchor(text, annotation);
}
