import type { Decision } from '@docket/core/store';
import { storedBill } from '@docket/core/test-support/bill-command-harness';
import { describe, expect, it } from 'vitest';
import { type DeckNow, type DeckOutcome, outcomeAnnouncement } from './deck-announcement.ts';

// The deck says what a decision or an undo did, what is on top now and how many are left, once
// the live reads show the stored outcome, and never names a "Next" it does not know yet.

const hb2 = storedBill(2, { identifier: 'HB 2' });
const hb3 = storedBill(3, { identifier: 'HB 3', title: 'Rail Crossing Safety Act' });

function decision(billId: string, kind: Decision['decision']): Decision {
  return { billId, decision: kind, decidedAt: '2025-01-15T12:00:00.000Z' };
}

const page = { cards: [hb2, hb3], empty: null };
const tracked: DeckOutcome = {
  kind: 'decided',
  said: 'Tracked HB 2',
  billId: hb2.id,
  decision: 'track',
};

function now(change: Partial<DeckNow>): DeckNow {
  return { page, cards: [hb3], empty: false, left: 1, decisions: [], ...change };
}

describe('outcomeAnnouncement', () => {
  it('after a decision, names the next card and what is left once the store shows it', () => {
    // The count has not seen the write yet: nothing is said, rather than a count one too many.
    expect(outcomeAnnouncement(tracked, now({ left: 2, decisions: [] }))).toBeNull();
    expect(outcomeAnnouncement(tracked, now({ left: undefined }))).toBeNull();
    expect(outcomeAnnouncement(tracked, now({ decisions: [decision(hb2.id, 'track')] }))).toBe(
      'Tracked HB 2. Next: HB 3, Rail Crossing Safety Act. 1 bill left.',
    );
  });

  it('waits for the next card to be dealt, and says when none is left', () => {
    const stored = [decision(hb2.id, 'track')];
    // The cards read are all decided and the next ones are still being read.
    expect(outcomeAnnouncement(tracked, now({ cards: [], decisions: stored }))).toBeNull();
    expect(
      outcomeAnnouncement(tracked, now({ cards: [], empty: true, left: 0, decisions: stored })),
    ).toBe('Tracked HB 2. No bills left.');
  });

  it('after an undo, says what came back once a newer read deals it, not naming it twice', () => {
    const undone: DeckOutcome = {
      kind: 'undone',
      said: 'Brought back HB 2',
      billId: hb2.id,
      decision: null,
      pageBefore: { cards: [hb3], empty: null },
    };
    // The undo is stored, but the page read before it does not deal the bill yet.
    expect(
      outcomeAnnouncement(undone, now({ page: undone.pageBefore, cards: [hb3], left: 2 })),
    ).toBeNull();
    // Still counted as decided: wait.
    expect(
      outcomeAnnouncement(
        undone,
        now({ cards: [hb2, hb3], decisions: [decision(hb2.id, 'track')] }),
      ),
    ).toBeNull();
    expect(outcomeAnnouncement(undone, now({ cards: [hb2, hb3], left: 2 }))).toBe(
      'Brought back HB 2. 2 bills left.',
    );
    // Brought back to "later" in a deck without later bills: another card is on top.
    const toLater: DeckOutcome = {
      ...undone,
      said: 'Undone: HB 2 is saved for later again',
      decision: 'later',
    };
    expect(
      outcomeAnnouncement(toLater, now({ cards: [hb3], decisions: [decision(hb2.id, 'later')] })),
    ).toBe(
      'Undone: HB 2 is saved for later again. Next: HB 3, Rail Crossing Safety Act. 1 bill left.',
    );
  });

  it('says an outcome that changed nothing as it is', () => {
    expect(
      outcomeAnnouncement({ kind: 'said', said: 'Nothing to undo.' }, now({ left: undefined })),
    ).toBe('Nothing to undo.');
  });
});
