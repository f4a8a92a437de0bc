import { afterEach, describe, expect, it } from 'vitest';
import {
  applySelectionKey,
  caretAnnouncement,
  type KeyPress,
  placeCaretIn,
  selectionAnnouncement,
  selectionKeyAction,
} from './keyboard-selection.ts';
import { selectionOffsets } from './selection-offsets.ts';

function press(key: string, modifiers: Partial<Omit<KeyPress, 'key'>> = {}): KeyPress {
  return { key, shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, ...modifiers };
}

describe('selectionKeyAction', () => {
  const cases: [string, KeyPress, ReturnType<typeof selectionKeyAction>][] = [
    [
      'Shift+Right extends a character',
      press('ArrowRight', { shiftKey: true }),
      extend('right', 'character'),
    ],
    [
      'Shift+Left extends back a character',
      press('ArrowLeft', { shiftKey: true }),
      extend('left', 'character'),
    ],
    [
      'Ctrl+Shift+Right extends a word',
      press('ArrowRight', { shiftKey: true, ctrlKey: true }),
      extend('right', 'word'),
    ],
    [
      'Option+Shift+Left (a Mac) extends back a word',
      press('ArrowLeft', { shiftKey: true, altKey: true }),
      extend('left', 'word'),
    ],
    [
      'Shift+Down extends a line',
      press('ArrowDown', { shiftKey: true }),
      extend('forward', 'line'),
    ],
    [
      'Shift+Up extends back a line',
      press('ArrowUp', { shiftKey: true }),
      extend('backward', 'line'),
    ],
    [
      'Shift+End extends to the line end',
      press('End', { shiftKey: true }),
      extend('forward', 'lineboundary'),
    ],
    [
      'Ctrl+Shift+Home extends to the text start',
      press('Home', { shiftKey: true, ctrlKey: true }),
      extend('backward', 'documentboundary'),
    ],
    [
      'Cmd+Shift+Down (a Mac) extends to the text end',
      press('ArrowDown', { shiftKey: true, metaKey: true }),
      extend('forward', 'documentboundary'),
    ],
    ['Right moves the caret', press('ArrowRight'), move('right', 'character')],
    ['Ctrl+Left moves a word back', press('ArrowLeft', { ctrlKey: true }), move('left', 'word')],
    ['Down moves a line', press('ArrowDown'), move('forward', 'line')],
    ['Home moves to the line start', press('Home'), move('backward', 'lineboundary')],
    ['Ctrl+A selects the whole text', press('a', { ctrlKey: true }), { kind: 'select-all' }],
    ['Cmd+A selects the whole text', press('a', { metaKey: true }), { kind: 'select-all' }],
    ['Escape collapses', press('Escape'), { kind: 'collapse' }],
    ['Enter goes on to the highlight', press('Enter'), { kind: 'confirm' }],
    ['Tab is left to the browser', press('Tab'), null],
    ['Shift+Tab is left to the browser', press('Tab', { shiftKey: true }), null],
    ['a letter is left to the browser', press('a'), null],
    ['Ctrl+Enter is left to the browser', press('Enter', { ctrlKey: true }), null],
    ['Page Down is left to the browser (it scrolls)', press('PageDown'), null],
  ];
  it.each(cases)('%s', (_name, key, expected) => {
    expect(selectionKeyAction(key)).toEqual(expected);
  });

  function extend(direction: string, granularity: string) {
    return { kind: 'modify', alter: 'extend', direction, granularity } as ReturnType<
      typeof selectionKeyAction
    >;
  }
  function move(direction: string, granularity: string) {
    return { kind: 'modify', alter: 'move', direction, granularity } as ReturnType<
      typeof selectionKeyAction
    >;
  }
});

describe('selectionAnnouncement', () => {
  it('reads a short passage whole, in quotes, on one line', () => {
    expect(selectionAnnouncement('six words\nof  bill text here')).toBe(
      'Selected: “six words of bill text here”',
    );
  });

  it('reads a long passage by its two ends and its length', () => {
    const passage = `Sec. 2. The board may close a branch on state holidays. ${'And more words. '.repeat(
      10,
    )}This act takes effect on July 1.`;
    const said = selectionAnnouncement(passage);
    expect(said).toBe(
      `Selected ${passage.length} characters: “Sec. 2. The board may close a … This act takes effect on July 1.”`,
    );
    expect(said.length).toBeLessThan(120);
  });

  it('never cuts a character in two', () => {
    const said = selectionAnnouncement('😀'.repeat(100));
    expect(said).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/u);
    expect(said).toContain('…');
  });

  it('says nothing of a selection of spaces alone', () => {
    expect(selectionAnnouncement(' \n ')).toBe('');
  });
});

describe('caretAnnouncement', () => {
  it('reads the words after the caret', () => {
    expect(caretAnnouncement('Sec. 1. Every library.', 8)).toBe('Before: “Every library.”');
    const long = 'Sec. 2. The board may close a branch on state holidays, and more.';
    expect(caretAnnouncement(long, 0)).toBe('Before: “Sec. 2. The board may close a…”');
  });

  it('skips the spaces and line breaks just after the caret', () => {
    expect(caretAnnouncement('hours.\n\nSec. 1. Every library.', 6)).toBe(
      'Before: “Sec. 1. Every library.”',
    );
  });

  it('says where the text ends', () => {
    expect(caretAnnouncement('Sec. 1.', 7)).toBe('At the end of the text.');
    expect(caretAnnouncement('Sec. 1.\n ', 7)).toBe('At the end of the text.');
  });
});

describe('the selection kept in the text', () => {
  afterEach(() => {
    document.getSelection()?.removeAllRanges();
    document.body.replaceChildren();
  });

  function text(): { region: HTMLElement; outside: Text } {
    const heading = document.createElement('p');
    heading.textContent = 'Heading';
    const region = document.createElement('div');
    const plain = document.createElement('span');
    plain.textContent = 'The ';
    const mark = document.createElement('mark');
    mark.textContent = 'Secretary';
    region.append(plain, mark);
    document.body.append(heading, region);
    const outside = heading.firstChild;
    if (!(outside instanceof Text)) throw new Error('no text');
    return { region, outside };
  }

  it('starts a caret at the text start when the selection is elsewhere, and keeps one inside', () => {
    const { region, outside } = text();
    const selection = document.getSelection();
    if (selection === null) throw new Error('no selection');
    selection.collapse(outside, 2);
    placeCaretIn(region, selection);
    expect(selection.anchorNode).toBe(region);
    expect(selection.anchorOffset).toBe(0);

    const mark = region.querySelector('mark')?.firstChild;
    if (!mark) throw new Error('no mark');
    selection.setBaseAndExtent(mark, 1, mark, 4);
    placeCaretIn(region, selection);
    expect(selectionOffsets(region, selection.getRangeAt(0))).toEqual({ start: 5, end: 8 });
  });

  it('selects the whole text, not the page, with Ctrl+A', () => {
    const { region } = text();
    const selection = document.getSelection();
    if (selection === null) throw new Error('no selection');
    expect(applySelectionKey(region, selection, { kind: 'select-all' })).toBe(true);
    expect(selection.toString()).toBe('The Secretary');
    expect(selectionOffsets(region, selection.getRangeAt(0))).toEqual({ start: 0, end: 13 });
  });

  it('leaves a key to the browser where there is no Selection.modify (jsdom)', () => {
    const { region } = text();
    const selection = document.getSelection();
    if (selection === null) throw new Error('no selection');
    const action = selectionKeyAction(press('ArrowRight', { shiftKey: true }));
    if (action === null || action.kind === 'confirm') throw new Error('not a selection key');
    expect(applySelectionKey(region, selection, action)).toBe(false);
  });
});
