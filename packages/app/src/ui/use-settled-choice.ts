import { useCallback, useEffect, useRef } from 'react';

// A choice among radios that is saved once it settles. Arrow keys move a radio group's choice
// one option at a time, and each step is a change: saving each would store (and announce, and
// sync) every option passed on the way to the one meant. A choice made by pointer (a click, a
// tap) is meant at once and is saved at once; one made by keyboard is saved when no other has
// followed for `SETTLE_MS`, when focus leaves the group, or when the screen goes away.

export const SETTLE_MS = 800;

export interface SettledChoice<K> {
  /** Shows `kind` as chosen and saves it now (pointer) or once the choice settles (keys). */
  readonly choose: (kind: K) => void;
  /** Saves the choice waiting to settle, if any, now. */
  readonly flush: () => void;
  /** Props for the group's element: a pointer press there makes the next choice immediate. */
  readonly groupProps: {
    readonly onPointerDown: () => void;
    readonly onKeyDown: () => void;
    readonly onBlur: (event: React.FocusEvent<HTMLElement>) => void;
  };
}

export function useSettledChoice<K>(
  save: (kind: K) => void,
  settleMs = SETTLE_MS,
): SettledChoice<K> {
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });
  const pending = useRef<{ kind: K } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const byPointer = useRef(false);

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const waiting = pending.current;
    if (waiting === null) return;
    pending.current = null;
    saveRef.current(waiting.kind);
  }, []);

  const choose = useCallback(
    (kind: K) => {
      pending.current = { kind };
      clearTimeout(timer.current);
      if (byPointer.current) {
        byPointer.current = false;
        flush();
      } else {
        timer.current = setTimeout(flush, settleMs);
      }
    },
    [flush, settleMs],
  );

  // Leaving the screen (or the bill) saves what was chosen, as leaving the group does.
  useEffect(() => flush, [flush]);

  const groupProps = {
    onPointerDown: () => {
      byPointer.current = true;
    },
    onKeyDown: () => {
      byPointer.current = false;
    },
    onBlur: (event: React.FocusEvent<HTMLElement>) => {
      const next = event.relatedTarget;
      if (next instanceof Node && event.currentTarget.contains(next)) return;
      byPointer.current = false;
      flush();
    },
  };
  return { choose, flush, groupProps };
}
