import type { FocusEvent, KeyboardEvent, RefObject } from 'react';
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Highlight, TextSegment } from './highlight-segments.ts';
import { highlightSegments } from './highlight-segments.ts';
import { textColourOn } from './highlight-colours.ts';
import {
  applySelectionKey,
  caretAnnouncement,
  caretBox,
  placeCaretIn,
  selectionAnnouncement,
  selectionInside,
  selectionKeyAction,
} from './keyboard-selection.ts';
import type { TextOffsets } from './selection-offsets.ts';
import { offsetWithin, selectionOffsets } from './selection-offsets.ts';

export interface ColouredHighlight extends Highlight {
  readonly color: string;
}

interface AnnotatedTextProps {
  readonly text: string;
  readonly highlights: readonly ColouredHighlight[];
  /** What a screen reader calls the text region. */
  readonly label: string;
  /** The highlight being edited, drawn with an outline. */
  readonly currentId?: string | undefined;
  /** A passage selected in the text, by mouse, touch or keyboard. */
  readonly onSelect?: ((offsets: TextOffsets) => void) | undefined;
  /** Enter pressed in the text with a passage selected: go on to highlight it. */
  readonly onConfirm?: (() => void) | undefined;
}

/** How long the selection stays still before it is read out, so each key press is not. */
export const ANNOUNCE_AFTER_MS = 300;

/**
 * The text as plain pieces and marks, built from offsets; React puts every piece in a text node,
 * so markup in a bill is never parsed. The region holds nothing but the text's characters (and
 * the drawn caret, an empty element), which is what lets selectionOffsets count a selection back
 * into offsets.
 *
 * It is also where a keyboard selects: focused (by Tab), its arrow keys move a caret and Shift
 * with them selects (keyboard-selection.ts), so a passage is picked in the text itself, and what
 * is selected is read out in a polite live region beside it.
 */
export const AnnotatedText = memo(function AnnotatedText({
  text,
  highlights,
  label,
  currentId,
  onSelect,
  onConfirm,
}: AnnotatedTextProps) {
  const ids = useId();
  const region = useRef<HTMLDivElement>(null);
  const caret = useRef<HTMLSpanElement>(null);
  const { announcement, say } = useQuietAnnouncement();
  const segments = useMemo(() => highlightSegments(text, highlights), [text, highlights]);
  const colours = useMemo(
    () => new Map(highlights.map((highlight) => [highlight.id, highlight.color])),
    [highlights],
  );
  const drawCaret = useCaretDrawing(region, caret);
  useSelectionFollowing(region, onSelect, say, drawCaret);
  const keyboard = useKeyboardSelecting({ onSelect, onConfirm, say, drawCaret });

  return (
    <>
      <div
        ref={region}
        className="annotated-text"
        role="region"
        aria-label={label}
        aria-describedby={onSelect === undefined ? undefined : `${ids}-keys`}
        // Focusable: a keyboard scrolls it, moves a caret in it and selects (keyboard-selection.ts).
        tabIndex={0}
        dir="auto"
        onPointerDown={keyboard.onPointerDown}
        onPointerUp={keyboard.onPointerUp}
        onFocus={keyboard.onFocus}
        onKeyDown={keyboard.onKeyDown}
      >
        <span ref={caret} className="annotated-text-caret" aria-hidden="true" hidden />
        <TextPieces text={text} segments={segments} colours={colours} currentId={currentId} />
      </div>
      {onSelect !== undefined && (
        <p id={`${ids}-keys`} className="field-hint annotated-text-keys">
          In the text, Shift with the arrow keys selects; with Ctrl too (Option on a Mac), a word at
          a time.{onConfirm === undefined ? '' : ' Enter highlights the selection.'}
        </p>
      )}
      <p className="visually-hidden annotated-text-said" role="status" aria-live="polite">
        {announcement}
      </p>
    </>
  );
});

/**
 * What the live region says, and `say`, which puts a message there once the selection has stayed
 * still for ANNOUNCE_AFTER_MS (a newer message replaces a waiting one).
 */
function useQuietAnnouncement(): { announcement: string; say: (message: string) => void } {
  const [announcement, setAnnouncement] = useState('');
  const announceTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const say = useCallback((message: string) => {
    clearTimeout(announceTimer.current);
    announceTimer.current = setTimeout(() => {
      setAnnouncement(message);
    }, ANNOUNCE_AFTER_MS);
  }, []);
  useEffect(
    () => () => {
      clearTimeout(announceTimer.current);
    },
    [],
  );
  return { announcement, say };
}

/** `drawCaret`: draws the caret mark where the selection's focus is; `reveal` scrolls it into view. */
function useCaretDrawing(
  regionRef: RefObject<HTMLDivElement | null>,
  caretRef: RefObject<HTMLSpanElement | null>,
): (reveal: boolean) => void {
  return useCallback(
    (reveal: boolean) => {
      const container = regionRef.current;
      const mark = caretRef.current;
      const selection = document.getSelection();
      if (container === null || mark === null || selection === null) return;
      const box = caretBox(container, selection);
      mark.hidden = box === null;
      if (box === null) return;
      mark.style.top = `${box.top}px`;
      mark.style.left = `${box.left}px`;
      mark.style.height = `${box.height}px`;
      // jsdom has no scrollIntoView.
      if (reveal && typeof mark.scrollIntoView === 'function') {
        mark.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      }
    },
    [regionRef, caretRef],
  );
}

/**
 * Follows the document's selection: a passage selected in the text is reported to `onSelect`,
 * and what the keyboard does in the focused text is drawn (the caret) and said.
 */
function useSelectionFollowing(
  regionRef: RefObject<HTMLDivElement | null>,
  onSelect: ((offsets: TextOffsets) => void) | undefined,
  say: (message: string) => void,
  drawCaret: (reveal: boolean) => void,
): void {
  useEffect(() => {
    // selectionchange fires while a mouse drag or Shift+arrow selection grows; only a
    // non-empty selection touching the text counts, so clicking into the note keeps the passage.
    const onSelectionChange = () => {
      const container = regionRef.current;
      const selection = document.getSelection();
      if (container === null || selection === null || selection.rangeCount === 0) return;
      const range = selection.getRangeAt(0);
      const offsets =
        !selection.isCollapsed && range.intersectsNode(container)
          ? selectionOffsets(container, range)
          : null;
      if (offsets !== null) onSelect?.(offsets);
      // What the keyboard does in the text is said; a selection made elsewhere is not.
      if (document.activeElement !== container || !selectionInside(container, selection)) return;
      drawCaret(false);
      const whole = container.textContent;
      const { focusNode, focusOffset } = selection;
      if (offsets !== null) say(selectionAnnouncement(whole.slice(offsets.start, offsets.end)));
      else if (focusNode !== null) {
        say(caretAnnouncement(whole, offsetWithin(container, focusNode, focusOffset)));
      }
    };
    document.addEventListener('selectionchange', onSelectionChange);
    return () => {
      document.removeEventListener('selectionchange', onSelectionChange);
    };
  }, [regionRef, onSelect, say, drawCaret]);
}

/**
 * The text region's handlers for selecting by keyboard: focus by Tab places a caret (focus by
 * the pointer leaves the selection to it), the keys move and extend the selection, and Enter
 * goes on with the passage selected.
 */
function useKeyboardSelecting({
  onSelect,
  onConfirm,
  say,
  drawCaret,
}: {
  readonly onSelect: ((offsets: TextOffsets) => void) | undefined;
  readonly onConfirm: (() => void) | undefined;
  readonly say: (message: string) => void;
  readonly drawCaret: (reveal: boolean) => void;
}) {
  // A press of the pointer focuses the region too; that focus leaves the selection to the pointer.
  const pointerFocus = useRef(false);
  return {
    onPointerDown: () => {
      pointerFocus.current = true;
    },
    onPointerUp: () => {
      pointerFocus.current = false;
    },
    onFocus: (event: FocusEvent<HTMLDivElement>) => {
      if (event.target !== event.currentTarget) return;
      const selection = document.getSelection();
      // Come by Tab: a caret at the start, or where the selection in the text was left.
      if (!pointerFocus.current && selection !== null) {
        placeCaretIn(event.currentTarget, selection);
      }
      pointerFocus.current = false;
      drawCaret(false);
    },
    onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => {
      const action = selectionKeyAction(event);
      const selection = document.getSelection();
      if (action === null || selection === null) return;
      const container = event.currentTarget;
      if (action.kind === 'confirm') {
        const offsets =
          selection.rangeCount > 0 && selectionInside(container, selection)
            ? selectionOffsets(container, selection.getRangeAt(0))
            : null;
        if (onConfirm === undefined) return;
        event.preventDefault();
        if (offsets === null) {
          say('Nothing selected: hold Shift and use the arrow keys to select a passage.');
          return;
        }
        onSelect?.(offsets);
        onConfirm();
        return;
      }
      if (applySelectionKey(container, selection, action)) {
        event.preventDefault();
        drawCaret(true);
      }
    },
  };
}

/**
 * The text's pieces, each a text node: plain spans, and marks in their top highlight's colour
 * (outlined when they hold the highlight being edited).
 */
function TextPieces({
  text,
  segments,
  colours,
  currentId,
}: {
  readonly text: string;
  readonly segments: readonly TextSegment[];
  /** Each highlight's colour, by id. */
  readonly colours: ReadonlyMap<string, string>;
  readonly currentId: string | undefined;
}) {
  return segments.map((segment) => {
    const piece = text.slice(segment.start, segment.end);
    const top = segment.highlightIds[segment.highlightIds.length - 1];
    if (top === undefined) return <span key={segment.start}>{piece}</span>;
    const background = colours.get(top) ?? '#fff176';
    return (
      <mark
        key={segment.start}
        data-annotation-ids={segment.highlightIds.join(' ')}
        className={
          currentId !== undefined && segment.highlightIds.includes(currentId)
            ? 'annotation-mark annotation-mark-current'
            : 'annotation-mark'
        }
        style={{ backgroundColor: background, color: textColourOn(background) }}
      >
        {piece}
      </mark>
    );
  });
}
