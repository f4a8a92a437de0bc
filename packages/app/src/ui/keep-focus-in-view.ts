// The focused text field stays above a phone's on-screen keyboard (issue 40). Where the browser
// honours the viewport's `interactive-widget=resizes-content` (Chrome on Android), the keyboard
// shrinks the page, ion-content with it, and a field near the bottom ends up below its scroller's
// new edge; where it does not (Safari on iOS), the keyboard covers the page and only the visual
// viewport shrinks. Either way, once the visible area changes, or a field is focused while the
// keyboard already covers part of the page, the field's scroller is scrolled just enough to show
// it. Ionic's scroll assist does this for its own ion-input and ion-textarea where its input shims
// run (iOS and Android phones); the app's notes, reasons and descriptions are native textareas,
// which Ionic leaves alone, so they are this module's.

/** Room kept between the field and the edge of what is visible. */
const MARGIN_PX = 12;

const NOT_TYPED_INTO: ReadonlySet<string> = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'hidden',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
]);

/** The focused element, looked for inside shadow roots too. */
function deepActiveElement(doc: Document): Element | null {
  let active = doc.activeElement;
  while (active?.shadowRoot?.activeElement != null) active = active.shadowRoot.activeElement;
  return active;
}

/** A field a keyboard types into: a textarea, a text-like input, or editable content. */
export function isTextField(element: Element | null): element is HTMLElement {
  if (element instanceof HTMLTextAreaElement) return !element.readOnly;
  if (element instanceof HTMLInputElement)
    return !element.readOnly && !NOT_TYPED_INTO.has(element.type);
  return element instanceof HTMLElement && element.isContentEditable;
}

/** The element's parent as laid out: through slots and out of shadow roots. */
function layoutParent(element: Element): Element | null {
  if (element.assignedSlot !== null) return element.assignedSlot;
  if (element.parentElement !== null) return element.parentElement;
  const root = element.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

function scrollsVertically(element: Element): boolean {
  if (element.scrollHeight <= element.clientHeight) return false;
  const { overflowY } = getComputedStyle(element);
  return overflowY === 'auto' || overflowY === 'scroll' || overflowY === 'overlay';
}

interface Band {
  readonly top: number;
  readonly bottom: number;
}

/** What of the layout viewport the person sees: all of it, less what the keyboard covers. */
function visibleBand(win: Window): Band {
  const viewport = win.visualViewport;
  if (viewport === null) return { top: 0, bottom: win.innerHeight };
  return { top: viewport.offsetTop, bottom: viewport.offsetTop + viewport.height };
}

/** How far `scroller` must scroll down (negative: up) to bring `field` inside `band`. */
function scrollNeeded(field: DOMRect, scroller: Element, band: Band): number {
  const box = scroller.getBoundingClientRect();
  const top = Math.max(band.top, box.top + scroller.clientTop) + MARGIN_PX;
  const bottom =
    Math.min(band.bottom, box.top + scroller.clientTop + scroller.clientHeight) - MARGIN_PX;
  if (bottom <= top) return 0;
  // A field taller than what is visible shows its top, where typing starts.
  if (field.top < top || field.height > bottom - top) return field.top - top;
  if (field.bottom > bottom) return field.bottom - bottom;
  return 0;
}

/**
 * Scrolls each scroller around `field`, innermost first, just enough to show it within what is
 * visible of the page; the window last, for a page that scrolls as a whole.
 */
export function revealField(field: HTMLElement, win: Window): void {
  const band = visibleBand(win);
  for (let at = layoutParent(field); at !== null; at = layoutParent(at)) {
    if (!scrollsVertically(at)) continue;
    const by = scrollNeeded(field.getBoundingClientRect(), at, band);
    if (by !== 0) at.scrollTop += by;
  }
  const rect = field.getBoundingClientRect();
  const top = band.top + MARGIN_PX;
  const bottom = band.bottom - MARGIN_PX;
  if (rect.bottom > bottom) win.scrollBy(0, Math.min(rect.bottom - bottom, rect.top - top));
  else if (rect.top < top) win.scrollBy(0, rect.top - top);
}

/** The ion-content around `field`, if any. */
function ionContentOf(field: Element): HTMLElement | null {
  for (let at = layoutParent(field); at !== null; at = layoutParent(at)) {
    if (at.localName === 'ion-content' && at instanceof HTMLElement) return at;
  }
  return null;
}

export interface KeepFocusInViewOptions {
  /** Fields someone else keeps in view (in the app, those Ionic's scroll assist moves). */
  readonly leaveAlone?: (field: HTMLElement) => boolean;
}

/**
 * Starts keeping the focused text field in view for the life of the page (app-startup.tsx starts
 * it once); returns what stops it.
 */
export function startKeepingFocusInView(
  win: Window,
  { leaveAlone = () => false }: KeepFocusInViewOptions = {},
): () => void {
  const doc = win.document;
  const viewport = win.visualViewport;
  // The ion-content given room below its last field (Ionic's --keyboard-offset), to clear later.
  let padded: HTMLElement | null = null;
  let frame: number | null = null;

  const clearPadding = () => {
    padded?.style.removeProperty('--keyboard-offset');
    padded = null;
  };

  /** Where the keyboard covers the page without shrinking it, a field at the very end of
   *  ion-content could not scroll above it: ion-content gets that much room at its end. */
  const padUnderKeyboard = (field: HTMLElement) => {
    const content = ionContentOf(field);
    const covered =
      content === null ? 0 : content.getBoundingClientRect().bottom - visibleBand(win).bottom;
    if (content !== padded || covered <= 0) clearPadding();
    if (content === null || covered <= 0) return;
    content.style.setProperty('--keyboard-offset', `${String(Math.ceil(covered))}px`);
    padded = content;
  };

  const keepInView = () => {
    frame = null;
    // Zoomed in by a pinch, the person pans the page themselves: scrolling under them would fight.
    if (viewport !== null && Math.abs(viewport.scale - 1) > 0.01) return;
    const field = deepActiveElement(doc);
    if (!isTextField(field) || leaveAlone(field)) {
      clearPadding();
      return;
    }
    padUnderKeyboard(field);
    revealField(field, win);
  };

  // After layout has taken the new size (ion-content follows the window in the same frame).
  const soon = () => {
    if (frame === null) frame = win.requestAnimationFrame(keepInView);
  };
  const keyboardCovers = () => viewport !== null && viewport.height < win.innerHeight - 1;

  const onFocusIn = () => {
    // Without a keyboard up, focusing scrolls the field into view as browsers always do.
    if (keyboardCovers()) soon();
  };
  const onFocusOut = () => {
    // Focus moving to the next field keeps the room; focus leaving the fields gives it back.
    win.setTimeout(() => {
      if (!isTextField(deepActiveElement(doc))) clearPadding();
    }, 0);
  };

  const resizes: EventTarget = viewport ?? win;
  resizes.addEventListener('resize', soon);
  doc.addEventListener('focusin', onFocusIn);
  doc.addEventListener('focusout', onFocusOut);
  return () => {
    resizes.removeEventListener('resize', soon);
    doc.removeEventListener('focusin', onFocusIn);
    doc.removeEventListener('focusout', onFocusOut);
    if (frame !== null) win.cancelAnimationFrame(frame);
    clearPadding();
  };
}
