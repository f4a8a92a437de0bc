import { annotationTargets, annotationTargetText } from '@docket/core/text';
import type { StoredBill } from '@docket/core/store';
import { useMemo, useState } from 'react';

// Which of a bill's texts the annotation screen shows (a version, or the title or summary when
// it has no text): the one asked for first, then the one the person chooses.

export interface ShownTarget {
  /** The bill's texts to annotate, with their labels. */
  readonly targets: readonly { readonly target: string; readonly label: string }[];
  readonly target: string;
  readonly label: string;
  /** The shown text's words, '' when it has none. */
  readonly text: string;
  /** Shows another of the bill's texts. */
  readonly choose: (target: string) => void;
}

/** The text of `bill` on screen, `wanted` at first when the bill has it, else its first. */
export function useShownTarget(bill: StoredBill, wanted: string | null): ShownTarget {
  const targets = useMemo(() => annotationTargets(bill), [bill]);
  const [chosen, choose] = useState<string>(
    () =>
      targets.find((option) => option.target === wanted)?.target ?? targets[0]?.target ?? 'title',
  );
  // A re-import may take away the version on screen; fall back to the first text there is.
  const target = targets.some((option) => option.target === chosen)
    ? chosen
    : (targets[0]?.target ?? 'title');
  return {
    targets,
    target,
    label: targets.find((option) => option.target === target)?.label ?? 'Title',
    text: annotationTargetText(bill, target) ?? '',
    choose,
  };
}
