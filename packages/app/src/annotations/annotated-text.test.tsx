import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_AFTER_MS, AnnotatedText } from './annotated-text.tsx';
import { NoteText } from './note-text.tsx';

afterEach(() => {
  cleanup();
  document.getSelection()?.removeAllRanges();
  vi.useRealTimers();
});

const hostile = 'Sec. 1. <img src=x onerror=alert(1)> and <script>alert(2)</script> שלום end.';

describe('AnnotatedText', () => {
  it('shows hostile text as characters, with the highlights as marks', () => {
    const start = hostile.indexOf('<img');
    const end = start + '<img src=x onerror=alert(1)>'.length;
    const { container } = render(
      <AnnotatedText
        text={hostile}
        label="Text of the bill: Introduced"
        highlights={[{ id: 'a', start, end, color: '#b9f6ca' }]}
      />,
    );
    const region = screen.getByRole('region', { name: 'Text of the bill: Introduced' });
    expect(region.textContent).toBe(hostile);
    expect(container.querySelector('img, script')).toBeNull();
    const marks = region.querySelectorAll('mark');
    expect(marks).toHaveLength(1);
    expect(marks[0]?.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(marks[0]?.getAttribute('style')).toContain('background-color');
  });

  it('reports a selection inside the text as offsets into it, across the marks', () => {
    const onSelect = vi.fn();
    render(
      <AnnotatedText
        text="The Secretary shall act."
        label="Text"
        highlights={[{ id: 'a', start: 4, end: 13, color: '#fff176' }]}
        onSelect={onSelect}
      />,
    );
    const region = screen.getByRole('region', { name: 'Text' });
    const mark = region.querySelector('mark')?.firstChild;
    const after = region.lastChild?.firstChild;
    if (!mark || !after) throw new Error('not rendered as expected');
    const range = document.createRange();
    range.setStart(mark, 4); // "Secr|etary"
    range.setEnd(after, 6); // " shall|"
    const selection = document.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    document.dispatchEvent(new Event('selectionchange'));
    expect(onSelect).toHaveBeenLastCalledWith({ start: 8, end: 19 });
  });
});

describe('AnnotatedText by keyboard', () => {
  const TEXT = 'The Secretary shall act within six months of enactment.';

  // jsdom puts the selection in any element focused (Chromium does not), so what focus does to
  // the selection is proven in annotated-text.web.test.ts.

  function renderText(props: { onConfirm?: () => void } = {}) {
    const onSelect = vi.fn();
    render(
      <>
        <button type="button">Before</button>
        <AnnotatedText
          text={TEXT}
          label="Text of the bill: Introduced"
          highlights={[{ id: 'a', start: 4, end: 13, color: '#fff176' }]}
          onSelect={onSelect}
          {...props}
        />
      </>,
    );
    const region = screen.getByRole('region', { name: 'Text of the bill: Introduced' });
    return { region, onSelect };
  }

  /** Selects [start, end) of the text through the DOM, as a mouse drag or Shift+arrows does. */
  function select(region: HTMLElement, start: number, end: number) {
    const walker = document.createTreeWalker(region, NodeFilter.SHOW_TEXT);
    const nodes: Text[] = [];
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      nodes.push(node as Text);
    }
    const locate = (offset: number): [Text, number] => {
      let left = offset;
      for (const node of nodes) {
        if (left <= node.data.length) return [node, left];
        left -= node.data.length;
      }
      throw new Error('past the text');
    };
    const range = document.createRange();
    range.setStart(...locate(start));
    range.setEnd(...locate(end));
    const selection = document.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    act(() => {
      document.dispatchEvent(new Event('selectionchange'));
    });
  }

  it('is a focusable region named for the bill, that says how to select in it', () => {
    const { region } = renderText({ onConfirm: vi.fn() });
    expect(region.tabIndex).toBe(0);
    expect(screen.getByRole('region', { description: /Shift with the arrow keys selects/ })).toBe(
      region,
    );
    expect(screen.getByRole('region', { description: /Enter highlights the selection\.$/ })).toBe(
      region,
    );
    // The old copy of the text in a textarea is gone: the text is selected in itself.
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByText('Select with the keyboard')).toBeNull();
  });

  it('reads a selection out once it stops changing, in a polite live region', () => {
    vi.useFakeTimers();
    const { region, onSelect } = renderText();
    act(() => {
      region.focus();
    });
    const status = screen.getByRole('status');
    expect(status.getAttribute('aria-live')).toBe('polite');
    select(region, 4, 9);
    select(region, 4, 19);
    // The same offsets a mouse selection of "Secretary shall" gives.
    expect(onSelect).toHaveBeenLastCalledWith({ start: 4, end: 19 });
    act(() => {
      vi.advanceTimersByTime(ANNOUNCE_AFTER_MS - 50);
    });
    expect(status.textContent).toBe('');
    act(() => {
      vi.advanceTimersByTime(50);
    });
    expect(status.textContent).toBe('Selected: “Secretary shall”');
  });

  it('does not read out a selection made while the text has no focus', () => {
    vi.useFakeTimers();
    const { region, onSelect } = renderText();
    select(region, 4, 13);
    expect(onSelect).toHaveBeenLastCalledWith({ start: 4, end: 13 });
    act(() => {
      vi.advanceTimersByTime(ANNOUNCE_AFTER_MS * 2);
    });
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('goes on to the highlight with Enter, with the passage selected', () => {
    const onConfirm = vi.fn();
    const { region, onSelect } = renderText({ onConfirm });
    act(() => {
      region.focus();
    });
    fireEvent.keyDown(region, { key: 'Enter' });
    expect(onConfirm).not.toHaveBeenCalled();
    select(region, 20, 26);
    onSelect.mockClear();
    fireEvent.keyDown(region, { key: 'Enter' });
    expect(onSelect).toHaveBeenCalledWith({ start: 20, end: 26 });
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('selects the whole text, not the page, with Ctrl+A', () => {
    const { region, onSelect } = renderText();
    act(() => {
      region.focus();
    });
    const event = fireEvent.keyDown(region, { key: 'a', ctrlKey: true });
    expect(event).toBe(false); // the page's own select-all is prevented
    act(() => {
      document.dispatchEvent(new Event('selectionchange'));
    });
    expect(onSelect).toHaveBeenLastCalledWith({ start: 0, end: TEXT.length });
  });
});

describe('NoteText', () => {
  it('links only http(s) addresses, opening apart from the app', () => {
    const { container } = render(
      <NoteText note="<img src=x onerror=alert(1)> javascript:alert(1) https://example.org/a" />,
    );
    expect(container.querySelector('img')).toBeNull();
    const links = screen.getAllByRole('link');
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('https://example.org/a');
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(links[0]?.getAttribute('target')).toBe('_blank');
    expect(container.textContent).toBe(
      '<img src=x onerror=alert(1)> javascript:alert(1) https://example.org/a',
    );
  });

  it('shows nothing for an empty note', () => {
    const { container } = render(<NoteText note="" />);
    expect(container.textContent).toBe('');
  });
});
