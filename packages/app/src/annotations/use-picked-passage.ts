import { annotationTargetText } from '@docket/core/text';
import type { StoredBill } from '@docket/core/store';
import { type RefObject, useCallback, useRef, useState } from 'react';
import { focusChosenColour } from './colour-choice.tsx';
import type { DraftPassage, PickedPassage } from './new-annotation-form.tsx';
import type { TextOffsets } from './selection-offsets.ts';

// The passage picked in the shown text for a new highlight, kept with the text it was picked in
// (to notice a re-import), and the way from the text to the form once it is picked by keyboard.

export interface PassagePick {
  /** The passage picked in the text on screen; null when none is, or it is in another text. */
  readonly passage: PickedPassage | null;
  /** The new highlight's form, for the focus to go to. */
  readonly formRef: RefObject<HTMLFormElement | null>;
  /** Picks a passage of the text on screen. */
  readonly pick: (offsets: TextOffsets) => void;
  /** Sends the focus to the form (Enter in the text). */
  readonly toForm: () => void;
  /** Picks a draft's passage again, in its text, where that text still says what was picked. */
  readonly restorePassage: (drafted: DraftPassage) => void;
  readonly clear: () => void;
}

/** A passage of `bill`'s text `target` (whose words are `text`); `choose` shows another text. */
export function usePickedPassage(
  bill: StoredBill,
  target: string,
  text: string,
  choose: (target: string) => void,
): PassagePick {
  const [passage, setPassage] = useState<PickedPassage | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const toForm = useCallback(() => {
    focusChosenColour(formRef.current);
  }, []);
  const pick = useCallback(
    (offsets: TextOffsets) => {
      setPassage({ ...offsets, target, text });
    },
    [target, text],
  );
  const restorePassage = useCallback(
    (drafted: DraftPassage) => {
      const then = annotationTargetText(bill, drafted.target);
      // Only where the text still says what was selected: a re-import may have moved it.
      if (then === null) return;
      if (then.slice(drafted.start, drafted.end) !== drafted.quote || drafted.quote === '') return;
      choose(drafted.target);
      setPassage({ start: drafted.start, end: drafted.end, target: drafted.target, text: then });
    },
    [bill, choose],
  );
  const clear = useCallback(() => {
    setPassage(null);
  }, []);
  return {
    passage: passage !== null && passage.target === target ? passage : null,
    formRef,
    pick,
    toForm,
    restorePassage,
    clear,
  };
}
