import type { BillVote } from '../bills/bill.ts';
import type { Chamber } from '../bills/bill-vocabulary.ts';

// GovInfo BILLSTATUS and the unitedstates/congress data.json both carry Congress's actions as
// the clerks wrote them, and neither carries roll-call tallies anywhere but in that text
// ("... by Yea-Nay Vote. 55 - 45. Record Vote Number: 52."). Reading them the same way for both
// sources keeps a bill's votes identical whichever file it came from.

// Regexes below run on clerk-sized text; anything longer is not an action sentence and is not
// worth the backtracking risk.
const LONGEST_ACTION_TEXT = 2_000;

/** The chamber an action belongs to when the source does not say: the President's actions, or
 *  whichever chamber the sentence names first ("Senate agreed to the House amendment"). */
export function chamberFromCongressText(text: string): Chamber | null {
  const probe = text.slice(0, LONGEST_ACTION_TEXT);
  if (
    /^(Presented to President|Signed by President|(Pocket )?Vetoed by President|Became (Public|Private) Law)/i.test(
      probe,
    )
  ) {
    return 'executive';
  }
  const house = probe.search(/\bHouse\b/);
  const senate = probe.search(/\bSenate\b/);
  if (house < 0 && senate < 0) return null;
  if (house < 0) return 'upper';
  if (senate < 0) return 'lower';
  return senate < house ? 'upper' : 'lower';
}

export interface RollCall {
  vote: BillVote;
  /** The chamber's roll-call number, for telling two records of one vote apart. */
  roll: string;
}

const SENATE_ROLL =
  /^(.*?) by Yea-Nay Vote\. ?(\d+) ?- ?(\d+)\. ?Record Vote (?:Number|No)\.?:? ?(\d+)/i;
const HOUSE_ROLL =
  /^(.*?) (Passed|Agreed to|Failed|Not Agreed to) by (?:the Yeas and Nays|recorded vote): ?(?:\(2\/3 required\):? ?)?(\d+) ?- ?(\d+)(?:, ?(\d+) Present)? ?\(Roll no\. ?(\d+)\)/i;

function senateOutcome(motion: string): boolean | null {
  if (/\b(not invoked|failed|not agreed|rejected|not sustained)\b/i.test(motion)) return false;
  if (/\b(passed|agreed|invoked|sustained|adopted)\b/i.test(motion)) return true;
  return null;
}

function parseRollCall(text: string, date: string | null): RollCall | null {
  const senate = SENATE_ROLL.exec(text);
  if (senate?.[1] && senate[2] && senate[3] && senate[4]) {
    return {
      roll: senate[4],
      vote: {
        date,
        chamber: 'upper',
        motion: senate[1],
        yes: Number(senate[2]),
        no: Number(senate[3]),
        other: null,
        passed: senateOutcome(senate[1]),
      },
    };
  }
  const house = HOUSE_ROLL.exec(text);
  if (house?.[1] && house[2] && house[3] && house[4] && house[6]) {
    return {
      roll: house[6],
      vote: {
        date,
        chamber: 'lower',
        motion: house[1],
        yes: Number(house[3]),
        no: Number(house[4]),
        other: house[5] ? Number(house[5]) : null,
        passed: /^(Passed|Agreed to)$/i.test(house[2]),
      },
    };
  }
  return null;
}

/**
 * The roll call an action sentence records, or null for voice votes, unanimous consent and
 * everything that is not a vote. The Library of Congress repeats chamber actions behind a
 * heading ("Passed/agreed to in Senate: Passed Senate ... 55 - 45 ..."); the heading is dropped
 * so both copies yield the same vote.
 */
// What a roll call's sentence must hold for SENATE_ROLL or HOUSE_ROLL to match it, in the text
// as written (before its whitespace is made single spaces): most actions hold neither, and are
// passed over without being rewritten.
const MAY_BE_ROLL_CALL = /Yea-Nay\s+Vote\.|\(Roll\s+no\./i;

export function rollCallFromCongressText(text: string, date: string | null): RollCall | null {
  if (text.length > LONGEST_ACTION_TEXT || !MAY_BE_ROLL_CALL.test(text)) return null;
  const flat = text.replace(/\s+/g, ' ').trim();
  const withoutHeading = flat.replace(/^[^:()]{3,80}: /, '');
  if (withoutHeading !== flat) {
    const fromBody = parseRollCall(withoutHeading, date);
    if (fromBody) return fromBody;
  }
  return parseRollCall(flat, date);
}

/** Roll calls from a list of actions, each counted once even when the source repeats it. */
export function rollCallsFromCongressActions(
  actions: readonly { text: string; date: string | null }[],
): BillVote[] {
  const seen = new Set<string>();
  const votes: BillVote[] = [];
  for (const action of actions) {
    const rollCall = rollCallFromCongressText(action.text, action.date);
    if (!rollCall) continue;
    const key = `${rollCall.vote.chamber ?? ''}|${rollCall.vote.date ?? ''}|${rollCall.roll}`;
    if (seen.has(key)) continue;
    seen.add(key);
    votes.push(rollCall.vote);
  }
  return votes;
}

/** congress.gov's page for a bill, e.g. https://www.congress.gov/bill/116th-congress/senate-joint-resolution/1 */
export function congressGovUrl(congress: string, type: string, number: string): string | null {
  const kinds: Readonly<Record<string, string>> = {
    hr: 'house-bill',
    s: 'senate-bill',
    hres: 'house-resolution',
    sres: 'senate-resolution',
    hjres: 'house-joint-resolution',
    sjres: 'senate-joint-resolution',
    hconres: 'house-concurrent-resolution',
    sconres: 'senate-concurrent-resolution',
  };
  const kind = kinds[type.toLowerCase()];
  if (!kind || !/^\d{1,3}$/.test(congress) || !/^\d{1,6}$/.test(number)) return null;
  const n = Number(congress);
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `https://www.congress.gov/bill/${n}${suffix}-congress/${kind}/${number}`;
}

/** Splits at commas outside double quotes, straight or curly: a nickname may hold a comma. */
function splitOutsideQuotes(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (char === '\u201C') quoted = true;
    else if (char === '\u201D') quoted = false;
    if (char === ',' && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

const NAME_SUFFIX = /\s+((?:Jr|Sr)\.?|II|III|IV|V)$/;

// The same few hundred members sponsor and cosponsor thousands of bills: each spelling is read
// once (a tenth of a BILLSTATUS import's time went to reading the same names again, and a fifth
// of a data.json bill's draft to its cosponsors' names). Bounded, so a file of endless distinct
// names cannot grow them without end.
const NAMES_KEPT = 20_000;
const lastFirstRead = new Map<string, string>();
const namesRead = new Map<string, string>();

function remembered(
  kept: Map<string, string>,
  text: string,
  read: (text: string) => string,
): string {
  const known = kept.get(text);
  if (known !== undefined) return known;
  const value = read(text);
  if (kept.size < NAMES_KEPT) kept.set(text, value);
  return value;
}

/**
 * "Cruz, Ted" → "Ted Cruz"; "Casey, Robert P., Jr." → "Robert P. Casey Jr.";
 * 'Johnson, Henry C. "Hank," Jr.' → 'Henry C. "Hank" Johnson Jr.' (the clerks' comma inside a
 * nickname's quotes is punctuation of the list, not of the name).
 */
export function nameFromLastFirst(name: string): string {
  return remembered(lastFirstRead, name, readLastFirst);
}

function readLastFirst(name: string): string {
  const parts = splitOutsideQuotes(name)
    .map((part) =>
      part
        .replace(/,\s*(["\u201D])/g, '$1')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((part) => part !== '');
  if (parts.length < 2) return name.trim();
  const [last, given = '', ...suffixes] = parts;
  const suffix = NAME_SUFFIX.exec(given);
  const first = suffix ? given.slice(0, suffix.index) : given;
  return [first, last, ...(suffix?.[1] ? [suffix[1]] : []), ...suffixes].join(' ');
}

/** "Sen. Cruz, Ted [R-TX]" → "Ted Cruz", the form data.json spells the same person in. */
export function nameFromCongressFullName(fullName: string): string {
  return remembered(namesRead, fullName, readCongressFullName);
}

function readCongressFullName(fullName: string): string {
  const withoutTitle = fullName.replace(
    /^(Sen\.|Rep\.|Del\.|Resident Commissioner|Commish\.?)\s+/i,
    '',
  );
  const withoutParty = withoutTitle.replace(/\s*\[[^\]]*\]\s*$/, '');
  return readLastFirst(withoutParty.replace(/\s+/g, ' '));
}

/**
 * A member's seat as Congress writes it in "[D-GA-4]": "GA-4" for a representative, "GA" for a
 * senator (no district), "GA-At Large" for a state's only representative (district 0, as GovInfo
 * and data.json both write it). Null without a state.
 */
export function congressDistrict(state: string | null, district: string | null): string | null {
  if (state === null || !/^[A-Z]{2}$/.test(state)) return null;
  if (district === null) return state;
  if (/^0+$/.test(district) || /^at[- ]?large$/i.test(district)) return `${state}-At Large`;
  return /^\d{1,3}$/.test(district) ? `${state}-${String(Number(district))}` : state;
}
