import { memo, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Highlight } from './highlight-segments.ts';
import { highlightSegments } from './highlight-segments.ts';
import { textColourOn } from './highlight-colours.ts';
import type { TextOffsets } from './selection-offsets.ts';
import { selectionOffsets } from './selection-offsets.ts';

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
}

/**
 * The text as plain pieces and marks, built from offsets; React puts every piece in a text node,
 * so markup in a bill is never parsed. The region holds nothing but the text's characters,
 * which is what lets selectionOffsets count a selection back into offsets.
 */
export const AnnotatedText = memo(function AnnotatedText({
  text,
  highlights,
  label,
  currentId,
  onSelect,
}: AnnotatedTextProps) {
  const region = useRef<HTMLDivElement>(null);
  const segments = useMemo(() => highlightSegments(text, highlights), [text, highlights]);
  const colours = useMemo(
    () => new Map(highlights.map((highlight) => [highlight.id, highlight.color])),
    [highlights],
  );

  useEffect(() => {
    if (onSelect === undefined) return undefined;
    // selectionchange fires while a mouse drag or Shift+arrow selection grows; only a
    // non-empty selection touching the text counts, so clicking into the note keeps the passage.
    const onSelectionChange = () => {
      const container = region.current;
      const selection = document.getSelection();
      if (container === null || selection === null || selection.rangeCount === 0) return;
      if (selection.isCollapsed) return;
      const range = selection.getRangeAt(0);
      if (!range.intersectsNode(container)) return;
      const offsets = selectionOffsets(container, range);
      if (offsets !== null) onSelect(offsets);
    };
    document.addEventListener('selectionchange', onSelectionChange);
    return () => {
      document.removeEventListener('selectionchange', onSelectionChange);
    };
  }, [onSelect]);

  return (
    <div
      ref={region}
      className="annotated-text"
      role="region"
      aria-label={label}
      // Focusable, so a keyboard user can scroll it; the textarea below offers caret selection.
      tabIndex={0}
      dir="auto"
    >
      {segments.map((segment) => {
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
      })}
    </div>
  );
});

/**
 * Caret selection for the keyboard: browsers move no caret through ordinary text (nor through a
 * `readonly` textarea, Chromium showed), but an editable textarea takes Home, arrows and
 * Shift+arrows and says where its selection is. Edits are refused before they happen (and a
 * controlled value puts back any that slip through); no on-screen keyboard opens for it.
 * Its value is only used when it is the text unchanged (a textarea rewrites CR LF to LF).
 */
export function KeyboardSelection({
  text,
  onSelect,
}: {
  readonly text: string;
  readonly onSelect: (offsets: TextOffsets) => void;
}) {
  const ids = useId();
  const [open, setOpen] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const element = field.current;
    if (!open || element === null) return undefined;
    const refuse = (event: Event) => {
      event.preventDefault();
    };
    element.addEventListener('beforeinput', refuse);
    return () => {
      element.removeEventListener('beforeinput', refuse);
    };
  }, [open]);
  const readSelection = (field: HTMLTextAreaElement) => {
    if (field.value !== text) return;
    if (field.selectionEnd > field.selectionStart) {
      onSelect({ start: field.selectionStart, end: field.selectionEnd });
    }
  };
  return (
    <details
      className="keyboard-selection"
      onToggle={(event) => {
        setOpen(event.currentTarget.open);
      }}
    >
      <summary>Select with the keyboard</summary>
      {open && (
        <div className="keyboard-selection-field">
          <label htmlFor={`${ids}-field`}>Text for keyboard selection</label>
          <p id={`${ids}-hint`} className="field-hint">
            Move with the arrow keys; hold Shift to select a passage.
          </p>
          <textarea
            ref={field}
            id={`${ids}-field`}
            aria-describedby={`${ids}-hint`}
            aria-readonly="true"
            inputMode="none"
            spellCheck={false}
            value={text}
            onChange={() => {
              // Refused: the value stays the text (see beforeinput above).
            }}
            rows={8}
            dir="auto"
            // Chromium reports a keyboard selection in a textarea late or not at all through
            // onSelect alone; key and pointer releases catch every way a selection ends.
            onSelect={(event) => {
              readSelection(event.currentTarget);
            }}
            onKeyUp={(event) => {
              readSelection(event.currentTarget);
            }}
            onMouseUp={(event) => {
              readSelection(event.currentTarget);
            }}
            onTouchEnd={(event) => {
              readSelection(event.currentTarget);
            }}
          />
        </div>
      )}
    </details>
  );
}
