import type { BillText } from '@docket/core/bills';
import type { Annotation } from '@docket/core/store';
import { describeSelection, headingLines } from '@docket/core/text';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { versionHighlights } from './bill-text-versions.tsx';
import { StructuredTextView } from './structured-text-view.tsx';

afterEach(cleanup);

const v1 =
  'Sec. 1. SHORT TITLE.\n\nThe Library Act.\n\nSec. 2. HOURS.\n\nEvery library shall stay open until nine.';
const v2 =
  'Sec. 1. SHORT TITLE.\n\nThe Library Act.\n\nSec. 2. HOURS.\n\nEvery library shall stay open until ten.';
const PASSAGE = 'Every library shall stay open';
const version = (type: string, text: string | null): BillText => ({
  date: null,
  type,
  url: `https://src.example/${type}.htm`,
  mimeType: 'text/html',
  text,
});

function annotationOn(target: string, text: string): Annotation {
  const start = text.indexOf(PASSAGE);
  const selectors = describeSelection(text, start, start + PASSAGE.length);
  return {
    id: 'a1',
    billId: 'bill',
    target,
    ...selectors,
    color: '#b9f6ca',
    note: '',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
}

describe('versionHighlights', () => {
  it('draws an annotation on its own version and, found there, on another one', () => {
    const texts = [version('Introduced', v1), version('Engrossed', v2), version('Enrolled', null)];
    const drawn = versionHighlights({ title: 'Libraries', summary: null }, texts, [
      annotationOn('text:0', v1),
    ]);
    const start = v1.indexOf(PASSAGE);
    expect(drawn.get(0)).toEqual([
      { id: 'a1', color: '#b9f6ca', carried: false, start, end: start + PASSAGE.length },
    ]);
    expect(drawn.get(1)).toEqual([
      { id: 'a1', color: '#b9f6ca', carried: true, start, end: start + PASSAGE.length },
    ]);
    expect(drawn.has(2)).toBe(false);
  });
});

describe('StructuredTextView', () => {
  it('marks a highlight inside its block, with words that do not rely on colour', () => {
    const start = v2.indexOf(PASSAGE);
    render(
      <>
        <h3 id="v2">Engrossed</h3>
        <StructuredTextView
          text={v2}
          headings={headingLines(v2)}
          labelledBy="v2"
          highlights={[
            { id: 'a1', start, end: start + PASSAGE.length, color: '#b9f6ca', carried: true },
          ]}
        />
      </>,
    );
    const region = screen.getByRole('region', { name: 'Engrossed' });
    expect(screen.getAllByRole('heading', { level: 4 }).map((h) => h.textContent)).toEqual([
      'Sec. 1. SHORT TITLE.',
      'Sec. 2. HOURS.',
    ]);
    const marks = region.querySelectorAll('mark');
    expect(marks).toHaveLength(1);
    expect(marks[0]?.textContent).toBe(`[highlight from another version: ${PASSAGE}]`);
    expect(marks[0]?.className).toContain('bill-text-mark-carried');
    expect(marks[0]?.closest('p')?.textContent).toBe(
      `[highlight from another version: ${PASSAGE}] until ten.`,
    );
  });
});
