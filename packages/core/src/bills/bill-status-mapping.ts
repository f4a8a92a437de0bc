import type { BillStatus, Chamber } from './bill-vocabulary.ts';

// Each source states a bill's progress in its own terms: LegiScan as a number, the
// unitedstates/congress scraper as a code word, GovInfo and Open States only through the actions
// themselves. This file maps all of them onto the one vocabulary of bill.ts, so the rules can be
// read (and are tested) side by side.
//
// Choices worth knowing:
// - 'in-committee' covers the whole stage between introduction and a chamber's vote: referred,
//   reported (congress REPORTED), discharged, or placed on a calendar without a committee.
// - A simple resolution agreed to in its one chamber is 'passed-one-chamber' (literally true;
//   it needs nothing more). LegiScan's status 4 "Passed" means its path is complete and maps to
//   'enacted', so a state resolution LegiScan marks Passed reads as enacted.
// - Passage by both chambers in different versions (congress PASS_BACK) counts as 'passed-both'.
// - A failed cloture vote does not dispose of a bill (cloture may be tried again, and a bill that
//   passed the House stays passed): the status keeps the furthest stage reached, and the vote
//   stays in the actions and votes. A failed suspension vote (congress PROV_KILL:SUSPENSIONFAILED)
//   is a failed passage vote and counts as 'failed'; a later passage lifts it again.

export interface StatusResult {
  status: BillStatus;
  statusDate: string | null;
  rawStatus: string | null;
}

// --- LegiScan -------------------------------------------------------------------------------

/** LegiScan's status numbers and the names its documentation gives them. */
export const legiScanStatusNames: Readonly<Record<number, string>> = {
  0: 'N/A',
  1: 'Introduced',
  2: 'Engrossed',
  3: 'Enrolled',
  4: 'Passed',
  5: 'Vetoed',
  6: 'Failed',
  7: 'Veto Override',
  8: 'Chaptered',
  9: 'Refer',
  10: 'Report Pass',
  11: 'Report DNP',
  12: 'Draft',
};

const LEGISCAN_STATUS: Readonly<Record<number, BillStatus>> = {
  0: 'introduced',
  1: 'introduced',
  2: 'passed-one-chamber',
  3: 'passed-both',
  4: 'enacted',
  5: 'vetoed',
  6: 'failed',
  7: 'enacted',
  8: 'enacted',
  9: 'in-committee',
  10: 'in-committee',
  11: 'in-committee',
  12: 'other',
};

/**
 * LegiScan status 1 (Introduced) is refined by the pending committee: a bill that sits in a
 * committee is 'in-committee'.
 */
export function statusFromLegiScan(
  code: number | null,
  statusDate: string | null,
  pendingCommitteeId: number | null,
): StatusResult {
  if (code === null) return { status: 'other', statusDate, rawStatus: null };
  let status = LEGISCAN_STATUS[code] ?? 'other';
  if (code === 1 && pendingCommitteeId !== null && pendingCommitteeId > 0) status = 'in-committee';
  return { status, statusDate, rawStatus: legiScanStatusNames[code] ?? String(code) };
}

// --- unitedstates/congress data.json --------------------------------------------------------

/**
 * The scraper's status words (its bill status documentation), e.g. 'REFERRED',
 * 'PASS_OVER:HOUSE', 'ENACTED:SIGNED'. Matched on the part before the first colon where the rest
 * only names a chamber.
 */
export function statusFromCongressJson(
  code: string | null,
  statusDate: string | null,
  enacted: boolean,
  /** The status words the bill's actions carried, oldest first: what a failed cloture vote
   *  leaves standing. */
  earlier: readonly { code: string; date: string | null }[] = [],
): StatusResult {
  const rawStatus = code;
  if (enacted) return { status: 'enacted', statusDate, rawStatus };
  if (code === null) return { status: 'other', statusDate, rawStatus };
  const upper = code.toUpperCase();
  if (upper.startsWith('PROV_KILL:CLOTURE')) {
    const standing = earlier.findLast(
      (entry) => !entry.code.toUpperCase().startsWith('PROV_KILL:CLOTURE'),
    );
    if (standing === undefined) return { status: 'introduced', statusDate, rawStatus };
    return { ...statusFromCongressJson(standing.code, standing.date, false), rawStatus };
  }
  const head = upper.split(':')[0] ?? '';
  let status: BillStatus;
  if (upper === 'INTRODUCED') status = 'introduced';
  else if (upper === 'REFERRED' || upper === 'REPORTED') status = 'in-committee';
  else if (upper === 'PASSED:SIMPLERES' || head === 'PASS_OVER') status = 'passed-one-chamber';
  else if (head === 'PASSED' || head === 'PASS_BACK' || head === 'CONFERENCE') {
    status = 'passed-both';
  } else if (upper === 'PROV_KILL:VETO' || head === 'VETOED' || head === 'OVERRIDE_PASS_OVER') {
    status = 'vetoed';
  } else if (head === 'PROV_KILL' || head === 'FAIL') status = 'failed';
  else if (head === 'ENACTED') status = 'enacted';
  else status = 'other';
  return { status, statusDate, rawStatus };
}

// --- Action-based sources (GovInfo BILLSTATUS, Open States) ---------------------------------

export type StatusEventKind =
  | 'introduced'
  /** Referred to or reported by a committee, discharged from one, or placed on a calendar. */
  | 'committee'
  | 'passed'
  | 'passed-both'
  | 'failed'
  | 'to-executive'
  | 'vetoed'
  | 'enacted';

export interface StatusEvent {
  kind: StatusEventKind;
  date: string | null;
  chamber: Chamber | null;
}

const PROGRESS: Readonly<Record<BillStatus, number>> = {
  other: -1,
  failed: -1,
  introduced: 0,
  'in-committee': 1,
  'passed-one-chamber': 2,
  'passed-both': 3,
  vetoed: 4,
  enacted: 5,
};

/**
 * Folds status events, oldest first, into the status they lead to and the date it was reached.
 * Passage is counted per chamber: one chamber is 'passed-one-chamber', both (or a unicameral
 * legislature) 'passed-both'. A failure stops progress until a later passage; nothing moves a
 * bill out of 'enacted', and only enactment moves it out of 'vetoed'.
 */
export function statusFromEvents(events: readonly StatusEvent[]): {
  status: BillStatus;
  statusDate: string | null;
} {
  const state: { status: BillStatus; statusDate: string | null } = {
    status: 'introduced',
    statusDate: null,
  };
  const passedChambers = new Set<string>();
  const set = (next: BillStatus, date: string | null) => {
    // A repeated status keeps the date it was first reached.
    if (next !== state.status || state.statusDate === null)
      state.statusDate = date ?? state.statusDate;
    state.status = next;
  };
  const isFinal = () => state.status === 'enacted' || state.status === 'vetoed';
  const advance = (next: BillStatus, date: string | null) => {
    if (isFinal()) return;
    if (state.status === 'failed' || PROGRESS[next] > PROGRESS[state.status]) set(next, date);
  };
  for (const event of events) {
    switch (event.kind) {
      case 'introduced':
        if (state.status === 'introduced') state.statusDate ??= event.date;
        break;
      case 'committee':
        advance('in-committee', event.date);
        break;
      case 'passed': {
        passedChambers.add(event.chamber ?? 'unknown');
        const both =
          event.chamber === 'legislature' ||
          (passedChambers.has('upper') && passedChambers.has('lower'));
        advance(both ? 'passed-both' : 'passed-one-chamber', event.date);
        break;
      }
      case 'passed-both':
      case 'to-executive':
        advance('passed-both', event.date);
        break;
      case 'failed':
        if (!isFinal()) set('failed', event.date);
        break;
      case 'vetoed':
        if (state.status !== 'enacted') set('vetoed', event.date);
        break;
      case 'enacted':
        set('enacted', event.date);
        break;
    }
  }
  return { status: state.status, statusDate: state.statusDate };
}

/**
 * The status event of one BILLSTATUS action, from the Library of Congress action code when there
 * is one (user guide table 3: 1000/10000 introduced, 2000/11000 referred, 5000/14000 reported,
 * 8000/17000 passed, 9000/18000 failed, 28000 presented, 31000 vetoed, 36000 became law) and
 * from the action text otherwise. E30000 is used for both signing and vetoing, and 36000 for
 * both signing and becoming law, so their text decides.
 */
export function billStatusActionEvent(
  code: string | null,
  text: string,
  date: string | null,
  chamber: Chamber | null,
): StatusEvent | null {
  const event = (kind: StatusEventKind, where: Chamber | null = chamber): StatusEvent => ({
    kind,
    date,
    chamber: where,
  });
  switch (code) {
    case '1000':
    case '10000':
    case 'Intro-H':
      return event('introduced');
    case '2000':
    case '11000':
    case 'H11100':
    case 'H11200':
    case '5000':
    case '14000':
    case 'H12200':
      return event('committee');
    case '8000':
      return event('passed', 'lower');
    case '17000':
      return event('passed', 'upper');
    case '9000':
      return event('failed', 'lower');
    case '18000':
      return event('failed', 'upper');
    case '28000':
    case 'E20000':
      return event('to-executive');
    case '31000':
      return event('vetoed');
    case 'E40000':
      return event('enacted');
  }
  if (/^(Became (Public|Private) Law|Signed by President)/i.test(text)) return event('enacted');
  if (/^(Pocket )?Vetoed by President/i.test(text)) return event('vetoed');
  if (/^Presented to President/i.test(text)) return event('to-executive');
  if (/^Passed\/agreed to in House/i.test(text)) return event('passed', 'lower');
  if (/^Passed\/agreed to in Senate/i.test(text)) return event('passed', 'upper');
  if (/^Failed of passage\/not agreed to in House/i.test(text)) return event('failed', 'lower');
  if (/^Failed of passage\/not agreed to in Senate/i.test(text)) return event('failed', 'upper');
  if (
    (code === '19500' || code === '20500') &&
    /\bagree/i.test(text) &&
    !/not agreed|failed/i.test(text)
  ) {
    return event('passed-both');
  }
  // A failed cloture vote ("Cloture ... not invoked") disposes of nothing: no event.
  if (/^On motion to suspend the rules\b.*\bFailed by\b/i.test(text)) return event('failed');
  if (/^(Introduced in (the )?(House|Senate))/i.test(text)) return event('introduced');
  // "referred to", "referred concurrently to", "re-referred": any referral, but not a motion to
  // refer or commit, which may yet fail.
  if (/\b(re-?)?referred\b/i.test(text) && !/motion to (re)?(commit|refer)/i.test(text)) {
    return event('committee');
  }
  if (/\bPlaced on (the )?(Senate Legislative|Union|House) Calendar/i.test(text))
    return event('committee');
  return null;
}

/**
 * The status events of one Open States action, from its classifications (the Open Civic Data
 * action vocabulary).
 */
export function openStatesActionEvents(
  classifications: readonly string[],
  date: string | null,
  chamber: Chamber | null,
): StatusEvent[] {
  const events: StatusEvent[] = [];
  const add = (kind: StatusEventKind) => events.push({ kind, date, chamber });
  for (const classification of classifications) {
    switch (classification) {
      case 'introduction':
      case 'filing':
        add('introduced');
        break;
      case 'referral-committee':
      case 'committee-passage':
      case 'committee-passage-favorable':
      case 'committee-passage-unfavorable':
        add('committee');
        break;
      case 'passage':
        add('passed');
        break;
      case 'failure':
      case 'committee-failure':
      case 'withdrawal':
        add('failed');
        break;
      case 'executive-receipt':
        add('to-executive');
        break;
      case 'executive-veto':
      case 'veto-override-failure':
        add('vetoed');
        break;
      case 'executive-signature':
      case 'became-law':
        add('enacted');
        break;
    }
  }
  return events;
}
