import {
  type AnnotationPlacement,
  annotationTargetText,
  placeAnnotation,
  placeOnOtherVersion,
  targetVersion,
} from '@docket/core/text';
import type { Annotation, StoredBill } from '@docket/core/store';
import { useMemo } from 'react';
import type { ColouredHighlight } from './annotated-text.tsx';
import type { ListedAnnotation } from './annotation-list.tsx';
import type { TextOffsets } from './selection-offsets.ts';

// Where a bill's highlights are as its texts read now, for the text on screen: each placed in the
// text it was made on (or an orphan, when a re-import took its passage away), those made on
// another version found in this one, the marks to draw and the lists under the text.

/** An annotation with where it is in its own text now. */
export interface PlacedAnnotation {
  readonly annotation: Annotation;
  readonly placement: AnnotationPlacement;
}

/** An annotation made on another version of the bill, found in the text on screen. */
export interface CarriedAnnotation {
  readonly annotation: Annotation;
  readonly range: TextOffsets;
}

export interface AnnotationPlacements {
  readonly placed: readonly PlacedAnnotation[];
  readonly carried: readonly CarriedAnnotation[];
  /** The marks drawn in the text on screen: the carried ones, then its own. */
  readonly highlights: readonly ColouredHighlight[];
  readonly inThisText: readonly ListedAnnotation[];
  readonly fromOtherVersions: readonly ListedAnnotation[];
  readonly orphans: readonly ListedAnnotation[];
  /** How many highlights are anchored in `target`'s text. */
  readonly anchoredCount: (target: string) => number;
  /** The passage as it reads now, or the stored quote of an orphan. */
  readonly quoteOf: (entry: PlacedAnnotation) => string;
}

/** `annotations` of `bill` placed for the text `target` (whose words are `text`). */
export function useAnnotationPlacements(
  bill: StoredBill,
  annotations: readonly Annotation[],
  target: string,
  text: string,
): AnnotationPlacements {
  const placed: PlacedAnnotation[] = useMemo(
    () =>
      annotations.map((annotation) => ({
        annotation,
        placement: placeAnnotation(bill, annotation),
      })),
    [bill, annotations],
  );
  const quoteOf = (entry: PlacedAnnotation): string => {
    if (entry.placement.kind === 'orphan') return entry.placement.quote;
    const now = annotationTargetText(bill, entry.annotation.target) ?? '';
    return now.slice(entry.placement.range.start, entry.placement.range.end);
  };
  // Highlights made on another version of the bill, found in this one (a new version keeps most
  // of the words of the one before): drawn here too, and listed apart.
  const carried: CarriedAnnotation[] = useMemo(
    () =>
      targetVersion(target) === null
        ? []
        : annotations.flatMap((annotation) => {
            const range = placeOnOtherVersion(bill, annotation, target);
            return range === null ? [] : [{ annotation, range }];
          }),
    [annotations, bill, target],
  );
  const highlights: ColouredHighlight[] = useMemo(
    () => [
      ...carried.map(({ annotation, range }) => ({
        id: annotation.id,
        color: annotation.color,
        ...range,
      })),
      ...placed.flatMap(({ annotation, placement }) =>
        placement.kind === 'anchored' && annotation.target === target
          ? [{ id: annotation.id, color: annotation.color, ...placement.range }]
          : [],
      ),
    ],
    [placed, carried, target],
  );
  const anchoredIn = (entry: PlacedAnnotation, option: string): boolean =>
    entry.placement.kind === 'anchored' && entry.annotation.target === option;
  return {
    placed,
    carried,
    highlights,
    inThisText: placed
      .filter((entry) => anchoredIn(entry, target))
      .map((entry) => ({ annotation: entry.annotation, quote: quoteOf(entry) })),
    fromOtherVersions: carried.map(({ annotation, range }) => ({
      annotation,
      quote: text.slice(range.start, range.end),
    })),
    orphans: placed
      .filter((entry) => entry.placement.kind === 'orphan')
      .map((entry) => ({ annotation: entry.annotation, quote: quoteOf(entry) })),
    anchoredCount: (option) => placed.filter((entry) => anchoredIn(entry, option)).length,
    quoteOf,
  };
}
