import type { Bill } from '@docket/core/bills';
import type { Annotation } from '@docket/core/store';
import { describe, expect, it } from 'vitest';
import { annotationPath, billIdOf } from './bill-details-route.ts';
import {
  annotationEntries,
  annotationTargetWord,
  chamberWord,
  decisionWord,
  distinctActions,
  sponsorName,
  sponsorSeat,
  documentKindWord,
  textSizeWord,
  timelineWindow,
  voteCountWord,
  voteResultWord,
} from './bill-details-words.ts';

const text = 'SECTION 1. Short title. This Act may be cited as the Tenant Protection Act.';
const bill: Pick<Bill, 'title' | 'summary' | 'texts'> = {
  title: 'Tenant protection act',
  summary: null,
  texts: [{ date: null, type: 'Introduced', url: null, mimeType: null, text }],
};

function annotation(id: string, exact: string, start: number, createdAt: string): Annotation {
  const index = text.indexOf(exact);
  return {
    id,
    billId: 'us-wa/2025/hb-1',
    quote: {
      exact,
      prefix: index < 0 ? '' : text.slice(Math.max(0, index - 10), index),
      suffix: index < 0 ? '' : text.slice(index + exact.length, index + exact.length + 10),
    },
    position: { start, end: start + exact.length },
    target: 'text:0',
    color: '#ffd400',
    note: '',
    createdAt,
    updatedAt: createdAt,
  };
}

describe('bill details words', () => {
  it('names chambers for Congress and for states', () => {
    expect(chamberWord('upper', 'us')).toBe('Senate');
    expect(chamberWord('lower', 'us')).toBe('House');
    expect(chamberWord('lower', 'us-ca')).toBe('Lower chamber');
    expect(chamberWord(null, 'us')).toBeNull();
  });

  it('words sponsors, votes and decisions', () => {
    expect(sponsorName({ name: 'Kaine, Tim', role: 'primary', party: 'D', externalId: null })).toBe(
      'Kaine, Tim (D)',
    );
    expect(
      sponsorName({
        name: 'Ted Cruz',
        role: 'primary',
        party: 'R',
        district: 'TX',
        externalId: null,
      }),
    ).toBe('Ted Cruz (R, TX)');
    expect(
      sponsorName({
        name: 'Ada Quintero',
        role: 'primary',
        party: null,
        district: 'HD-014',
        externalId: null,
      }),
    ).toBe('Ada Quintero (HD-014)');
    expect(sponsorName({ name: 'A. Person', role: 'sponsor', party: null, externalId: null })).toBe(
      'A. Person',
    );
    // The seat alone, beside a name that links to the person's bills.
    expect(
      sponsorSeat({
        name: 'Ted Cruz',
        role: 'primary',
        party: 'R',
        district: 'TX',
        externalId: null,
      }),
    ).toBe('R, TX');
    expect(sponsorSeat({ name: 'A. Person', role: 'sponsor', party: null, externalId: null })).toBe(
      null,
    );
    expect(voteCountWord(null)).toBe('not recorded');
    expect(voteResultWord(true)).toBe('Passed');
    expect(voteResultWord(null)).toBe('Not recorded');
    expect(decisionWord(null)).toBe('Not triaged yet');
    expect(decisionWord('later')).toBe('Saved for later');
    expect(textSizeWord('x'.repeat(312_400))).toBe('about 104 pages');
    expect(textSizeWord('x'.repeat(4_000))).toBe('about 1 page');
    expect(textSizeWord('x'.repeat(1_000))).toBe('less than a page');
    expect(documentKindWord('application/pdf')).toBe('PDF');
    expect(documentKindWord('text/html; charset=utf-8')).toBe('web page');
    expect(documentKindWord('application/octet-stream')).toBeNull();
    expect(documentKindWord(null)).toBeNull();
  });

  it('shows the newest actions of a long timeline until asked for all', () => {
    expect(timelineWindow(30, false, 50)).toEqual({ first: 0, hidden: 0 });
    expect(timelineWindow(120, false, 50)).toEqual({ first: 70, hidden: 70 });
    expect(timelineWindow(120, true, 50)).toEqual({ first: 0, hidden: 0 });
  });

  it('names annotation targets, including a version a re-import removed', () => {
    expect(annotationTargetWord(bill, 'title')).toBe('Title');
    expect(annotationTargetWord(bill, 'text:0')).toBe('Text: Introduced');
    expect(annotationTargetWord(bill, 'text:3')).toBe('Text version 4 (no longer in the bill)');
  });

  it('lists orphans apart, with their quotes, and never drops one', () => {
    const found = annotation('a', 'Short title', 11, '2025-01-02T00:00:00Z');
    const earlier = annotation('b', 'SECTION 1', 0, '2025-01-03T00:00:00Z');
    const gone = annotation('c', 'a passage that was struck out', 40, '2025-01-01T00:00:00Z');
    const { placed, orphans } = annotationEntries(bill, [found, gone, earlier]);
    expect(placed.map((entry) => entry.annotation.id)).toEqual(['b', 'a']);
    expect(orphans).toHaveLength(1);
    expect(orphans[0]?.placement).toEqual({
      kind: 'orphan',
      quote: 'a passage that was struck out',
    });
  });
});

describe('bill details route', () => {
  it('reads the encoded id and treats a blank one as missing', () => {
    expect(billIdOf('?id=us%2F116%2Fsjres-68')).toBe('us/116/sjres-68');
    expect(billIdOf('?id=')).toBeNull();
    expect(billIdOf('')).toBeNull();
  });

  it('opens the annotation screen for a new or an existing annotation', () => {
    expect(annotationPath('us/116/sjres-68')).toBe('/annotation?bill=us%2F116%2Fsjres-68');
    expect(annotationPath('us/116/sjres-68', 'a b')).toBe(
      '/annotation?bill=us%2F116%2Fsjres-68&id=a%20b',
    );
  });
});

describe('distinctActions', () => {
  const referred = {
    date: '2020-01-09',
    chamber: 'upper' as const,
    text: 'Referred to committee.',
  };
  it('keeps an exact repeat once and counts it, in the order the source gave', () => {
    const introduced = { date: '2020-01-09', chamber: 'upper' as const, text: 'Introduced.' };
    expect(distinctActions([introduced, referred, referred, introduced])).toEqual({
      actions: [introduced, referred],
      repeats: 2,
    });
  });
  it('keeps steps that differ in date, chamber or words, however alike', () => {
    const actions = [
      referred,
      { ...referred, date: '2020-01-10' },
      { ...referred, chamber: 'lower' as const },
      { ...referred, chamber: null },
      { ...referred, text: 'Referred to committee' },
    ];
    expect(distinctActions(actions)).toEqual({ actions, repeats: 0 });
  });
});
