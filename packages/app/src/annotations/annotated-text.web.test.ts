import { createElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { AnnotatedText } from './annotated-text.tsx';
import './annotations.css';
import type { TextOffsets } from './selection-offsets.ts';
import { selectionOffsets } from './selection-offsets.ts';

// In a real browser: the keys that select in the bill text are Chromium's Selection.modify, and
// its caret is drawn where layout puts the characters; jsdom has neither.

const TEXT = `AN ACT Relating to public library hours.
Sec. 1. Every public library shall stay open until nine in the evening on weekdays.
Sec. 2. The board may close a branch on state holidays.
Sec. 3. A sign reading <img src=x onerror=window.__pwned=1> is posted at the door.`;

let root: Root | undefined;

interface Mounted {
  readonly region: HTMLElement;
  readonly status: HTMLElement;
  readonly before: HTMLButtonElement;
  readonly onSelect: ReturnType<typeof vi.fn<(offsets: TextOffsets) => void>>;
  readonly onConfirm: ReturnType<typeof vi.fn<() => void>>;
}

function mount(): Mounted {
  const page = document.createElement('div');
  page.style.width = '1200px';
  const before = document.createElement('button');
  before.textContent = 'Before';
  const host = document.createElement('div');
  const after = document.createElement('button');
  after.textContent = 'After';
  page.append(before, host, after);
  document.body.append(page);
  const onSelect = vi.fn<(offsets: TextOffsets) => void>();
  const onConfirm = vi.fn<() => void>();
  const start = TEXT.indexOf('library hours');
  root = createRoot(host);
  const rendered = root;
  flushSync(() => {
    rendered.render(
      createElement(AnnotatedText, {
        text: TEXT,
        label: 'Text of the bill: Introduced',
        highlights: [{ id: 'a', start, end: start + 'library hours'.length, color: '#fff176' }],
        onSelect,
        onConfirm,
      }),
    );
  });
  const region = host.querySelector<HTMLElement>('[role="region"]');
  const status = host.querySelector<HTMLElement>('[role="status"]');
  if (region === null || status === null) throw new Error('not rendered');
  // Wide enough that no line of the text wraps: a line down is the next line of the text.
  region.style.whiteSpace = 'pre';
  return { region, status, before, onSelect, onConfirm };
}

/** The offsets of `passage` as a mouse selection gives them: a DOM range around its characters. */
function mouseOffsets(region: HTMLElement, passage: string): TextOffsets | null {
  const walker = document.createTreeWalker(region, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    nodes.push(node as Text);
  }
  const locate = (offset: number): [Text, number] => {
    let left = offset;
    for (const node of nodes) {
      if (left < node.data.length) return [node, left];
      left -= node.data.length;
    }
    throw new Error('past the text');
  };
  const at = TEXT.indexOf(passage);
  const range = document.createRange();
  range.setStart(...locate(at));
  range.setEnd(...locate(at + passage.length));
  return selectionOffsets(region, range);
}

async function keys(sequence: string): Promise<void> {
  await userEvent.keyboard(sequence);
}

afterEach(() => {
  root?.unmount();
  root = undefined;
  document.getSelection()?.removeAllRanges();
  document.body.replaceChildren();
});

describe('selecting in the bill text by keyboard', () => {
  it('is reached by Tab and selects with Shift and Ctrl+Shift arrows, as a mouse would', async () => {
    const { region, status, before, onSelect } = mount();
    before.focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(region);
    // A caret at the start of the text, drawn there.
    expect(document.getSelection()?.anchorNode).toBe(region);
    expect(document.getSelection()?.isCollapsed).toBe(true);
    expect(region.querySelector<HTMLElement>('.annotated-text-caret')?.hidden).toBe(false);
    await expect
      .poll(() => status.textContent)
      .toBe('Before: “AN ACT Relating to public library…”');

    // Down a line to "Sec. 1.", a word at a time (Chromium stops at "." too), then by characters.
    await keys('{ArrowDown}');
    await keys('{Control>}{Shift>}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}');
    await keys('{/Shift}{/Control}');
    await keys('{Shift>}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{/Shift}');
    const passage = 'Sec. 1. Every publ';
    expect(document.getSelection()?.toString()).toBe(passage);
    await expect.poll(() => onSelect.mock.lastCall?.[0]).toEqual(mouseOffsets(region, passage));
    expect(onSelect.mock.lastCall?.[0]).toEqual({
      start: TEXT.indexOf(passage),
      end: TEXT.indexOf(passage) + passage.length,
    });
    await expect.poll(() => status.textContent).toBe(`Selected: “${passage}”`);
  });

  it('selects across a highlight and keeps the selection inside the text', async () => {
    const { region, onSelect } = mount();
    region.focus();
    // "Relating to public library hours." crosses into the mark.
    // A word to the right ends at the word's end (Linux and macOS), then a space.
    await keys('{Control>}{ArrowRight}{ArrowRight}{/Control}{ArrowRight}');
    await keys('{Shift>}{End}{/Shift}');
    const passage = 'Relating to public library hours.';
    expect(document.getSelection()?.toString()).toBe(passage);
    await expect.poll(() => onSelect.mock.lastCall?.[0]).toEqual(mouseOffsets(region, passage));

    // Past the text's ends the selection stays in it: the buttons around it are not taken in.
    await keys('{Control>}{End}{/Control}{Shift>}{ArrowRight}{ArrowDown}{ArrowRight}{/Shift}');
    const selection = document.getSelection();
    expect(selection !== null && region.contains(selection.focusNode)).toBe(true);
    expect(selection?.toString()).toBe('');
    await keys('{Control>}{Shift>}{Home}{/Shift}{/Control}{Shift>}{ArrowLeft}{ArrowUp}{/Shift}');
    expect(region.contains(document.getSelection()?.anchorNode ?? null)).toBe(true);
    expect(region.contains(document.getSelection()?.focusNode ?? null)).toBe(true);
    expect(document.getSelection()?.toString()).toBe(TEXT);
  });

  it('draws the caret where it is and keeps a selection left in the text when Tab comes back', async () => {
    const { region, before } = mount();
    before.focus();
    await userEvent.tab();
    const caret = region.querySelector<HTMLElement>('.annotated-text-caret');
    if (caret === null) throw new Error('no caret');
    await keys('{ArrowDown}{ArrowRight}{ArrowRight}{ArrowRight}');
    // Before "." of "Sec.": the caret is drawn at that character's left edge.
    const [node, offset] = (() => {
      const walker = document.createTreeWalker(region, NodeFilter.SHOW_TEXT);
      let left = TEXT.indexOf('. 1.');
      for (let text = walker.nextNode(); text !== null; text = walker.nextNode()) {
        const data = (text as Text).data;
        if (left < data.length) return [text, left] as const;
        left -= data.length;
      }
      throw new Error('past the text');
    })();
    const character = document.createRange();
    character.setStart(node, offset);
    character.setEnd(node, offset + 1);
    const expected = character.getBoundingClientRect();
    const drawn = caret.getBoundingClientRect();
    expect(caret.hidden).toBe(false);
    expect(Math.abs(drawn.left + drawn.width / 2 - expected.left)).toBeLessThan(2);
    expect(Math.abs(drawn.top - expected.top)).toBeLessThan(4);

    await keys('{Shift>}{ArrowRight}{ArrowRight}{ArrowRight}{/Shift}');
    expect(document.getSelection()?.toString()).toBe('. 1');
    before.focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(region);
    expect(document.getSelection()?.toString()).toBe('. 1');
  });

  it('goes on to the highlight with Enter, only with a passage selected', async () => {
    const { region, status, onConfirm, onSelect } = mount();
    region.focus();
    await keys('{Enter}');
    expect(onConfirm).not.toHaveBeenCalled();
    await expect
      .poll(() => status.textContent)
      .toBe('Nothing selected: hold Shift and use the arrow keys to select a passage.');

    await keys('{Control>}{Shift>}{ArrowRight}{ArrowRight}{/Shift}{/Control}{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onSelect).toHaveBeenLastCalledWith({ start: 0, end: 'AN ACT'.length });
  });
});
