import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnnotatedText } from './annotated-text.tsx';
import { NoteText } from './note-text.tsx';

afterEach(cleanup);

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
