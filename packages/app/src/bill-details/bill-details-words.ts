import type { Bill, BillAction, BillVote, Chamber, Sponsor } from '@docket/core/bills';
import { type AnnotationPlacement, placeAnnotation } from '@docket/core/text';
import type { Annotation, Decision, Position } from '@docket/core/store';

// What the bill-details screen says about a bill and the user's rows on it, kept apart from
// the components so the wording and the choices are tested without a browser.

/** Congress's chambers have names; a state's may be a House, an Assembly or a House of Delegates. */
export function chamberWord(chamber: Chamber | null, jurisdiction: string): string | null {
  if (chamber === null) return null;
  const congress = jurisdiction === 'us';
  switch (chamber) {
    case 'upper':
      return congress ? 'Senate' : 'Upper chamber';
    case 'lower':
      return congress ? 'House' : 'Lower chamber';
    case 'legislature':
      return 'Legislature';
    case 'executive':
      return congress ? 'President' : 'Executive';
  }
}

const roleWords: Record<Sponsor['role'], string> = {
  primary: 'Primary sponsor',
  sponsor: 'Sponsor',
  cosponsor: 'Cosponsor',
};

export function sponsorRoleWord(role: Sponsor['role']): string {
  return roleWords[role];
}

// A sponsor's name with party and seat is core's (bills/bill-naming.ts), so the deck card and
// bill details say it alike.
export { sponsorName, sponsorSeat } from '@docket/core/bills';

export function voteCountWord(count: number | null): string {
  return count === null ? 'not recorded' : count.toLocaleString();
}

export function voteResultWord(passed: BillVote['passed']): string {
  if (passed === null) return 'Not recorded';
  return passed ? 'Passed' : 'Failed';
}

export type DecisionKind = Decision['decision'];

export const decisionChoices: readonly { kind: DecisionKind; label: string; done: string }[] = [
  { kind: 'track', label: 'Track', done: 'Tracked' },
  { kind: 'dismiss', label: 'Dismiss', done: 'Dismissed' },
  { kind: 'later', label: 'Later', done: 'Saved for later' },
];

export function decisionWord(decision: DecisionKind | null): string {
  if (decision === null) return 'Not triaged yet';
  return decisionChoices.find((choice) => choice.kind === decision)?.done ?? decision;
}

export type PositionKind = Position['position'];

export const positionChoices: readonly { kind: PositionKind; label: string }[] = [
  { kind: 'support', label: 'Support' },
  { kind: 'oppose', label: 'Oppose' },
  { kind: 'watch', label: 'Watch' },
  { kind: 'none', label: 'None' },
];

export function positionWord(position: PositionKind): string {
  return positionChoices.find((choice) => choice.kind === position)?.label ?? position;
}

/** Characters on a printed page of bill text, near enough for "about N pages". */
const CHARACTERS_A_PAGE = 3000;

/** "About 104 pages": enough to decide whether to open a version, in a reader's measure. */
export function textSizeWord(text: string): string {
  const pages = Math.round(text.length / CHARACTERS_A_PAGE);
  if (pages < 1) return 'less than a page';
  return pages === 1 ? 'about 1 page' : `about ${pages.toLocaleString('en-US')} pages`;
}

/** The kind of an original document in a reader's words ("PDF"), or null for one we cannot name. */
export function documentKindWord(mimeType: string | null): string | null {
  if (mimeType === null) return null;
  const type = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/pdf') return 'PDF';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'web page';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'XML';
  if (type === 'text/plain') return 'plain text';
  if (
    type === 'application/msword' ||
    type === 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
  ) {
    return 'Word document';
  }
  if (type === 'application/rtf' || type === 'text/rtf') return 'RTF';
  return null;
}

/** The name of the text an annotation is on: the version's name, or Title / Summary. */
export function annotationTargetWord(bill: Pick<Bill, 'texts'>, target: string): string {
  if (target === 'title') return 'Title';
  if (target === 'summary') return 'Summary';
  const match = /^text:(\d+)$/.exec(target);
  const index = match ? Number(match[1]) : Number.NaN;
  const version = bill.texts[index];
  if (version !== undefined) return `Text: ${version.type}`;
  return Number.isNaN(index) ? target : `Text version ${index + 1} (no longer in the bill)`;
}

export interface AnnotationEntry {
  readonly annotation: Annotation;
  readonly targetWord: string;
  readonly placement: AnnotationPlacement;
}

/**
 * The bill's annotations split into those whose passage is found in the bill as it is now and
 * the orphans, whose passage a re-import removed or changed beyond recognition. Orphans are
 * listed, never dropped: their quote is what is left of what the user marked.
 */
export function annotationEntries(
  bill: Pick<Bill, 'title' | 'summary' | 'texts'>,
  annotations: readonly Annotation[],
): { placed: AnnotationEntry[]; orphans: AnnotationEntry[] } {
  const placed: AnnotationEntry[] = [];
  const orphans: AnnotationEntry[] = [];
  for (const annotation of annotations) {
    const placement = placeAnnotation(bill, annotation);
    const entry = {
      annotation,
      targetWord: annotationTargetWord(bill, annotation.target),
      placement,
    };
    (placement.kind === 'orphan' ? orphans : placed).push(entry);
  }
  const byPosition = (a: AnnotationEntry, b: AnnotationEntry) => {
    const start = (entry: AnnotationEntry) =>
      entry.placement.kind === 'anchored' ? entry.placement.range.start : 0;
    return (
      a.annotation.target.localeCompare(b.annotation.target) ||
      start(a) - start(b) ||
      a.annotation.createdAt.localeCompare(b.annotation.createdAt)
    );
  };
  placed.sort(byPosition);
  return { placed, orphans };
}

/** How many of the newest actions the timeline shows before "Show all". */
export const TIMELINE_PREVIEW = 50;

/**
 * The part of a long timeline shown: the newest actions, because what happened last is what
 * people open a bill for; `first` is the 0-based index of the first one shown.
 */
export function timelineWindow(
  count: number,
  showAll: boolean,
  preview = TIMELINE_PREVIEW,
): { first: number; hidden: number } {
  if (showAll || count <= preview) return { first: 0, hidden: 0 };
  return { first: count - preview, hidden: count - preview };
}

/**
 * The actions oldest first, each exact repeat (the same date, chamber and words as one listed
 * before it) kept once: sources list some steps twice (congress data.json repeats a referral to
 * several committees, once for each, in 58 bills of the 116th Congress), which reads as if it
 * happened twice.
 * `repeats` says how many were left out, so the screen can say so.
 */
export function distinctActions(actions: readonly BillAction[]): {
  actions: BillAction[];
  repeats: number;
} {
  const seen = new Set<string>();
  const kept = actions.filter((action) => {
    const key = JSON.stringify([action.date, action.chamber, action.text]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { actions: kept, repeats: actions.length - kept.length };
}
