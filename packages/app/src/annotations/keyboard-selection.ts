// Selecting in the bill text by keyboard. A browser moves no caret through text that is not
// editable (unless a person turns on caret browsing), so the text region does it itself: each
// key becomes a Selection.modify step (Chromium, WebKit and Firefox all have it), kept inside
// the region. The selection made this way is the document's own, so the rest of the screen reads
// it exactly as it reads one made with the mouse (selection-offsets.ts).

export type SelectionGranularity =
  'character' | 'word' | 'line' | 'lineboundary' | 'documentboundary';

export type SelectionKeyAction =
  | {
      readonly kind: 'modify';
      /** 'move' moves the caret; 'extend' moves the selection's focus and keeps its anchor. */
      readonly alter: 'move' | 'extend';
      /** 'left' and 'right' follow the text's direction, as arrows do in an editor. */
      readonly direction: 'forward' | 'backward' | 'left' | 'right';
      readonly granularity: SelectionGranularity;
    }
  | { readonly kind: 'select-all' }
  /** Escape: the selection shrinks to a caret where its focus was. */
  | { readonly kind: 'collapse' }
  /** Enter: go on to highlight the passage selected. */
  | { readonly kind: 'confirm' };

/** The parts of a keydown that say what it asks for. */
export interface KeyPress {
  readonly key: string;
  readonly shiftKey: boolean;
  readonly ctrlKey: boolean;
  readonly altKey: boolean;
  readonly metaKey: boolean;
}

/**
 * What a key pressed in the text does to the selection, or null for a key left to the browser.
 * As in a text field: arrows move by a character or a line, Ctrl (Alt on a Mac) + Left or Right
 * by a word, Home and End to the line's ends (with Ctrl or Cmd, the text's); Shift extends.
 */
export function selectionKeyAction(press: KeyPress): SelectionKeyAction | null {
  const { key, shiftKey, ctrlKey, altKey, metaKey } = press;
  const alter = shiftKey ? 'extend' : 'move';
  const modify = (
    direction: 'forward' | 'backward' | 'left' | 'right',
    granularity: SelectionGranularity,
  ): SelectionKeyAction => ({ kind: 'modify', alter, direction, granularity });
  const byWord = ctrlKey || altKey;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowLeft': {
      const direction = key === 'ArrowRight' ? 'right' : 'left';
      if (metaKey) return modify(direction, 'lineboundary');
      return modify(direction, byWord ? 'word' : 'character');
    }
    case 'ArrowDown':
    case 'ArrowUp': {
      const direction = key === 'ArrowDown' ? 'forward' : 'backward';
      // Not Ctrl for a paragraph: Chromium's keeps the caret's column, as a line does.
      return modify(direction, metaKey ? 'documentboundary' : 'line');
    }
    case 'Home':
    case 'End': {
      const direction = key === 'End' ? 'forward' : 'backward';
      return modify(direction, ctrlKey || metaKey ? 'documentboundary' : 'lineboundary');
    }
    case 'a':
    case 'A':
      return (ctrlKey || metaKey) && !altKey && !shiftKey ? { kind: 'select-all' } : null;
    case 'Escape':
      return shiftKey || ctrlKey || altKey || metaKey ? null : { kind: 'collapse' };
    case 'Enter':
      return shiftKey || ctrlKey || altKey || metaKey ? null : { kind: 'confirm' };
    default:
      return null;
  }
}

/** Where a boundary point is against `container`: -1 before it, 0 inside, 1 after. */
function placeAgainst(container: Node, node: Node, offset: number): -1 | 0 | 1 {
  if (container === node || container.contains(node)) return 0;
  const document = container.ownerDocument ?? (container as Document);
  const whole = document.createRange();
  whole.selectNodeContents(container);
  return whole.comparePoint(node, offset) < 0 ? -1 : 1;
}

/** Whether the selection's both ends are in `container`. */
export function selectionInside(container: Node, selection: Selection): boolean {
  const { anchorNode, focusNode } = selection;
  return (
    selection.rangeCount > 0 &&
    anchorNode !== null &&
    focusNode !== null &&
    placeAgainst(container, anchorNode, selection.anchorOffset) === 0 &&
    placeAgainst(container, focusNode, selection.focusOffset) === 0
  );
}

/** A caret at the start of `container`, unless the selection is in it already (kept, then). */
export function placeCaretIn(container: Node, selection: Selection): void {
  if (!selectionInside(container, selection)) selection.collapse(container, 0);
}

/** Puts back inside `container` a selection end that a step took out of it. */
function keepInside(container: Node, selection: Selection, alter: 'move' | 'extend'): void {
  const { focusNode, focusOffset } = selection;
  if (focusNode === null) return;
  const place = placeAgainst(container, focusNode, focusOffset);
  if (place === 0) return;
  const offset = place < 0 ? 0 : container.childNodes.length;
  if (alter === 'move' || selection.anchorNode === null) selection.collapse(container, offset);
  else selection.setBaseAndExtent(selection.anchorNode, selection.anchorOffset, container, offset);
}

/** The Selection.modify of the browsers (not in the DOM standard, nor in jsdom). */
type Modify = (this: Selection, alter: string, direction: string, granularity: string) => void;

/**
 * Does what the key asks to the selection in `container`; false when this browser cannot (no
 * Selection.modify), so the key is left to it. A selection elsewhere starts again at the text's
 * start; no step takes the selection out of the text.
 */
export function applySelectionKey(
  container: Node,
  selection: Selection,
  action: Exclude<SelectionKeyAction, { kind: 'confirm' }>,
): boolean {
  if (action.kind === 'select-all') {
    selection.selectAllChildren(container);
    return true;
  }
  placeCaretIn(container, selection);
  if (action.kind === 'collapse') {
    if (selection.focusNode !== null)
      selection.collapse(selection.focusNode, selection.focusOffset);
    return true;
  }
  const modifiable = selection as Selection & { modify?: Modify };
  if (typeof modifiable.modify !== 'function') return false;
  modifiable.modify(action.alter, action.direction, action.granularity);
  keepInside(container, selection, action.alter);
  return true;
}

/** Longest selection read out whole; a longer one is read by its two ends. */
export const ANNOUNCED_WHOLE = 80;
const ANNOUNCED_END = 36;

/** The first `count` characters (code points) of `text`, ended at a space where one is near. */
function head(text: string, count: number): string {
  // Sliced first: a whole bill may be selected, and only its ends are looked at.
  const cut = Array.from(text.slice(0, count * 2))
    .slice(0, count)
    .join('');
  const space = cut.lastIndexOf(' ');
  return (space > count / 2 ? cut.slice(0, space) : cut).trimEnd();
}

function tail(text: string, count: number): string {
  const cut = Array.from(text.slice(-count * 2))
    .slice(-count)
    .join('');
  const space = cut.indexOf(' ');
  return (space !== -1 && space < count / 2 ? cut.slice(space + 1) : cut).trimStart();
}

/**
 * What is said of a selected passage: the whole of a short one; of a long one, its start and its
 * end (the end is what a person extending the selection has just reached) and its length.
 */
export function selectionAnnouncement(passage: string): string {
  const flat = passage.replace(/\s+/g, ' ').trim();
  if (flat === '') return '';
  const short =
    flat.length <= ANNOUNCED_WHOLE ||
    (flat.length <= ANNOUNCED_WHOLE * 2 && Array.from(flat).length <= ANNOUNCED_WHOLE);
  if (short) return `Selected: “${flat}”`;
  const characters = passage.length.toLocaleString('en-US');
  return `Selected ${characters} characters: “${head(flat, ANNOUNCED_END)} … ${tail(flat, ANNOUNCED_END)}”`;
}

/** What is said where the caret is, with nothing selected: the words just after it. */
export function caretAnnouncement(text: string, offset: number): string {
  // The words start where the spaces after the caret end; only a few are read.
  const start = text.slice(offset).search(/\S/);
  if (start === -1) return 'At the end of the text.';
  const window = text.slice(offset + start, offset + start + ANNOUNCED_END * 2);
  const near = window.replace(/\s+/g, ' ').trimEnd();
  const whole = offset + start + window.length >= text.length;
  const words =
    whole && Array.from(near).length <= ANNOUNCED_END ? near : `${head(near, ANNOUNCED_END)}…`;
  return `Before: “${words}”`;
}

/** Where the caret is drawn, in the region's own coordinates (scrolled with its text). */
export interface CaretBox {
  readonly top: number;
  readonly left: number;
  readonly height: number;
}

/** A boundary point in a text node standing for (node, offset): a collapsed range there has a box. */
function textPoint(container: Node, node: Node, offset: number): [Node, number] {
  if (node.nodeType === Node.TEXT_NODE) return [node, offset];
  const document = container.ownerDocument ?? (container as Document);
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  const point = document.createRange();
  point.setStart(node, offset);
  let before: Text | null = null;
  for (let text = walker.nextNode(); text !== null; text = walker.nextNode()) {
    if ((text as Text).data === '') continue;
    if (point.comparePoint(text, 0) >= 0) return [text, 0];
    before = text as Text;
  }
  return before === null ? [node, offset] : [before, before.data.length];
}

/** The caret at the selection's focus in `container`, or null where none can be drawn. */
export function caretBox(container: HTMLElement, selection: Selection): CaretBox | null {
  const { focusNode, focusOffset } = selection;
  if (focusNode === null || !selectionInside(container, selection)) return null;
  const range = container.ownerDocument.createRange();
  const [node, offset] = textPoint(container, focusNode, focusOffset);
  range.setStart(node, offset);
  range.collapse(true);
  // jsdom lays nothing out and has no boxes for a range.
  if (typeof range.getClientRects !== 'function') return null;
  const rect = range.getClientRects()[0];
  if (rect === undefined || rect.height === 0) return null;
  const frame = container.getBoundingClientRect();
  return {
    top: rect.top - frame.top - container.clientTop + container.scrollTop,
    left: rect.left - frame.left - container.clientLeft + container.scrollLeft,
    height: rect.height,
  };
}
