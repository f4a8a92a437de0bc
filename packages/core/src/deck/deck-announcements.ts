import type { DecisionKind, UndoResult } from '../commands/triage-commands.ts';

// What the deck's one polite live region says after a decision or an undo (issue 40): what
// happened, the card now on top and how many are left, in words a screen reader says in passing.

const decisionVerbs: Record<DecisionKind, string> = {
  track: 'Tracked',
  dismiss: 'Dismissed',
  later: 'Saved for later:',
};

/**
 * What the deck's live region says a decision did, "Tracked S.J.Res. 1"; the deck adds what is
 * next (deckAnnouncement).
 */
export function decisionAnnouncement(kind: DecisionKind, identifier: string): string {
  return `${decisionVerbs[kind]} ${identifier}`;
}

const decidedAgain: Record<DecisionKind, string> = {
  track: 'tracked',
  dismiss: 'dismissed',
  later: 'saved for later',
};

/** What the deck's live region says "Undo" did; `identifierOf` names a bill by its id. */
export function undoAnnouncement(result: UndoResult, identifierOf: (id: string) => string): string {
  switch (result.kind) {
    case 'nothing-to-undo':
      return 'Nothing to undo.';
    case 'changed-since':
      return `${identifierOf(result.billId)} was decided again since, on another device; nothing was undone.`;
    case 'undone':
      return result.decision === null
        ? `Brought back ${identifierOf(result.billId)}`
        : `Undone: ${identifierOf(result.billId)} is ${decidedAgain[result.decision.decision]} again`;
  }
}

/** Titles longer than this are cut, at a word where one ends near it, in an announcement. */
export const ANNOUNCED_TITLE_MAX = 60;

/** A bill's title short enough to be heard in passing: "School Lunch Nutrition Act". */
export function shortTitle(title: string): string {
  const whole = title.replace(/\s+/g, ' ').trim();
  if (whole.length <= ANNOUNCED_TITLE_MAX) return whole;
  const cut = whole.slice(0, ANNOUNCED_TITLE_MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space >= ANNOUNCED_TITLE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The card on top of the deck after an outcome, as an announcement names it. */
export interface AnnouncedCard {
  readonly identifier: string;
  readonly title: string;
}

/**
 * The deck's one announcement after a decision or an undo: what happened, the card now on top
 * (left out when `next` is undefined, as when the bill brought back is on top) and how many are
 * left: "Tracked HB 2. Next: HB 3, Rail Crossing Safety Act. 5 bills left." With nothing left to
 * deal: "Tracked HB 2. No bills left."
 */
export function deckAnnouncement(
  said: string,
  next: AnnouncedCard | null | undefined,
  left: number,
): string {
  const parts = [said];
  if (next !== null && next !== undefined) {
    parts.push(`Next: ${next.identifier}, ${shortTitle(next.title)}`);
  }
  parts.push(
    left === 0
      ? 'No bills left'
      : `${left.toLocaleString('en-US')} ${left === 1 ? 'bill' : 'bills'} left`,
  );
  return `${parts.join('. ')}.`;
}
