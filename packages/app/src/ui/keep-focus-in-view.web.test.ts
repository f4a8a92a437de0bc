import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { startKeepingFocusInView } from './keep-focus-in-view.ts';

// In a real browser, because what is at stake is layout: a field focused near the bottom of a
// scrolling screen, then the visible area shrinks as a phone's keyboard opens. With
// `interactive-widget=resizes-content` the page itself shrinks (the frame is resized here); where
// the keyboard only covers the page, the visual viewport shrinks (faked here, since a desktop
// browser's cannot be) and the page keeps its size.

function frames(count: number): Promise<void> {
  return new Promise((resolve) => {
    const step = (left: number) => {
      if (left === 0) resolve();
      else
        requestAnimationFrame(() => {
          step(left - 1);
        });
    };
    step(count);
  });
}

/** A screen as the app draws one: a scroller filling the frame (as ion-content does), a long
 *  page in it, and the field ("Why") `fieldTop` px from the top. */
function mountScreen(
  fieldTop: number,
  below = 1200,
  scrollerTag = 'div',
): { scroller: HTMLElement; field: HTMLElement } {
  const scroller = document.createElement(scrollerTag);
  // ion-content pads its end by --keyboard-offset; the stand-in does too.
  scroller.style.cssText =
    'display: block; position: fixed; inset: 0; overflow-y: auto; box-sizing: border-box;' +
    ' padding-bottom: var(--keyboard-offset, 0px);';
  const before = document.createElement('div');
  before.style.height = `${String(fieldTop)}px`;
  const field = document.createElement('textarea');
  field.setAttribute('aria-label', 'Why');
  field.rows = 3;
  field.style.cssText = 'display: block; height: 60px; box-sizing: border-box;';
  const after = document.createElement('div');
  after.style.height = `${String(below)}px`;
  scroller.append(before, field, after);
  document.body.append(scroller);
  return { scroller, field };
}

/** Whether the field lies whole within `top`..`bottom` of the layout viewport. */
function within(field: HTMLElement, top: number, bottom: number): boolean {
  const rect = field.getBoundingClientRect();
  return rect.top >= top && rect.bottom <= bottom;
}

/** A keyboard over the page's lower part, as Safari has it: only the visual viewport shrinks. */
function coverWithKeyboard(visibleHeight: number): void {
  const viewport = window.visualViewport;
  if (viewport === null) throw new Error('this browser has no visualViewport');
  Object.defineProperty(viewport, 'height', { configurable: true, get: () => visibleHeight });
  Object.defineProperty(viewport, 'offsetTop', { configurable: true, get: () => 0 });
  viewport.dispatchEvent(new Event('resize'));
}

/** The keyboard gone: the visual viewport is the browser's again. */
function uncover(): void {
  const viewport = window.visualViewport;
  if (viewport === null) return;
  Reflect.deleteProperty(viewport, 'height');
  Reflect.deleteProperty(viewport, 'offsetTop');
  viewport.dispatchEvent(new Event('resize'));
}

let stop: (() => void) | null = null;

beforeEach(async () => {
  await page.viewport(390, 844);
  stop = startKeepingFocusInView(window, { leaveAlone: () => false });
});

afterEach(async () => {
  stop?.();
  stop = null;
  uncover();
  document.body.replaceChildren();
  await page.viewport(390, 844);
});

describe('keeping the focused field in view', () => {
  it('scrolls a field the shrunk page hides back into view (resizes-content)', async () => {
    const { field } = mountScreen(700);
    field.focus();
    expect(within(field, 0, 844)).toBe(true);

    // The keyboard takes 344 px: the page is now 500 px tall and the field was at 700.
    await page.viewport(390, 500);
    await expect.poll(() => window.innerHeight).toBe(500);
    await frames(3);
    expect(within(field, 0, 500)).toBe(true);
    expect(document.activeElement).toBe(field);
  });

  it('scrolls a field the keyboard covers above it (the visual viewport alone shrinks)', async () => {
    const { field } = mountScreen(600);
    field.focus();
    await frames(2);
    // A keyboard over the lower 444 px: the page keeps its 844 px, only 400 of it is visible.
    coverWithKeyboard(400);
    await frames(3);
    expect(window.innerHeight).toBe(844);
    expect(within(field, 0, 400)).toBe(true);
  });

  it('gives ion-content room to lift its last field above the keyboard, and takes it back', async () => {
    const { scroller, field } = mountScreen(700, 0, 'ion-content');
    const after = document.createElement('button');
    after.textContent = 'Save';
    document.body.append(after);
    field.focus();
    await frames(2);
    coverWithKeyboard(400);
    await frames(3);
    expect(within(field, 0, 400)).toBe(true);
    expect(scroller.style.getPropertyValue('--keyboard-offset')).toBe('444px');

    // The keyboard put away with the field still focused (Android's hide key): the room goes.
    uncover();
    await expect.poll(() => scroller.style.getPropertyValue('--keyboard-offset')).toBe('');
    coverWithKeyboard(400);
    await expect.poll(() => scroller.style.getPropertyValue('--keyboard-offset')).toBe('444px');

    after.focus();
    await expect.poll(() => scroller.style.getPropertyValue('--keyboard-offset')).toBe('');
  });

  it('leaves alone a field already in view, and one that is not focused', async () => {
    const { scroller, field } = mountScreen(100);
    const other = mountScreen(900).field;
    field.focus();
    await page.viewport(390, 500);
    await expect.poll(() => window.innerHeight).toBe(500);
    await frames(3);
    expect(scroller.scrollTop).toBe(0);
    expect(within(other, 0, 500)).toBe(false);
  });
});
