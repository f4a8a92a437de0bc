import { XMLParser } from 'fast-xml-parser';

// What a source file itself says about a bill, read with a minimal parse of its own (fast-xml-parser
// for XML, JSON.parse for JSON) and none of the importers' code, so that the fidelity report
// compares the importers with the sources rather than with themselves. Each reader takes the
// field the source names (BILLSTATUS's latestAction) or, where there is none, the one its
// documented convention points to (the last of a list documented oldest first).

export type SourceFormat = 'billstatus' | 'congress-json' | 'openstates' | 'legiscan';

/** The fields compared; a source leaves out those it does not have. */
export interface SourceFields {
  format: SourceFormat;
  latestActionText?: string | null | undefined;
  latestActionDate?: string | null | undefined;
  title?: string | null | undefined;
  introducedDate?: string | null | undefined;
  /** The primary sponsor as the source identifies them: a bioguide id, a people_id or a name. */
  sponsor?: string | null | undefined;
  cosponsorCount?: number | undefined;
  /**
   * Where the bill stands, in Docket's status words, as far as the source says: data.json's
   * `status` and LegiScan's status code give a stage; BILLSTATUS and Open States scrapes give no
   * status, only whether the bill became law (BILLSTATUS's `<laws>` or an action of type
   * `BecameLaw`, Open States' `became-law` action), so for them this is 'enacted' or 'not enacted'.
   */
  status?: string | undefined;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter(isObject) : isObject(value) ? [value] : [];
const text = (value: unknown): string | null => {
  if (typeof value === 'string') return value.replace(/\s+/g, ' ').trim() || null;
  if (typeof value === 'number') return String(value);
  return null;
};
const day = (value: unknown): string | null => text(value)?.slice(0, 10) ?? null;

const xml = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  htmlEntities: true,
  isArray: (name) => name === 'item',
});

function billStatusFields(source: string): SourceFields | null {
  const parsed: unknown = xml.parse(source);
  const bill = isObject(parsed) && isObject(parsed.billStatus) ? parsed.billStatus.bill : null;
  if (!isObject(bill)) return null;
  const latest = isObject(bill.latestAction) ? bill.latestAction : null;
  const sponsors = isObject(bill.sponsors) ? list(bill.sponsors.item) : [];
  // A cosponsor who withdrew stays listed, with the date of the withdrawal.
  const cosponsors = (isObject(bill.cosponsors) ? list(bill.cosponsors.item) : []).filter(
    (cosponsor) => text(cosponsor.sponsorshipWithdrawnDate) === null,
  );
  return {
    format: 'billstatus',
    latestActionText: latest === null ? undefined : text(latest.text),
    latestActionDate: latest === null ? undefined : day(latest.actionDate),
    title: text(bill.title),
    introducedDate: day(bill.introducedDate),
    sponsor: text(sponsors[0]?.bioguideId),
    cosponsorCount: cosponsors.length,
    // A file written between the signing and the law's number has an empty <laws/> and the
    // signing as an action of type BecameLaw (H.R. 133 of the 116th).
    status:
      list(isObject(bill.laws) ? bill.laws.item : undefined).some(
        (law) => text(law.number) !== null,
      ) ||
      (isObject(bill.actions) ? list(bill.actions.item) : []).some(
        (action) => text(action.type) === 'BecameLaw',
      )
        ? 'enacted'
        : 'not enacted',
  };
}

/**
 * The unitedstates/congress scraper's status words (its wiki's "bill status" page) in Docket's
 * words. A failed cloture vote (PROV_KILL:CLOTUREFAILED) disposes of nothing: the status before
 * it stands, the last status word of the bill's actions that is not one.
 */
function congressJsonStatus(bill: Json): string | undefined {
  const word = (value: unknown) => text(value)?.toUpperCase() ?? null;
  let status = word(bill.status);
  if (status?.startsWith('PROV_KILL:CLOTURE') === true) {
    status =
      list(bill.actions)
        .map((action) => word(action.status))
        .filter((code) => code !== null && !code.startsWith('PROV_KILL:CLOTURE'))
        .at(-1) ?? 'INTRODUCED';
  }
  if (status === null) return undefined;
  const [head = '', rest = ''] = status.split(':');
  if (head === 'INTRODUCED') return 'introduced';
  if (head === 'REFERRED' || head === 'REPORTED') return 'in-committee';
  // A simple resolution is voted on by one chamber only; PASS_OVER: passed one, sent to the other.
  if (status === 'PASSED:SIMPLERES' || head === 'PASS_OVER') return 'passed-one-chamber';
  // PASS_BACK and CONFERENCE: both chambers passed it, their versions still differ.
  if (head === 'PASSED' || head === 'PASS_BACK' || head === 'CONFERENCE') return 'passed-both';
  if (head === 'ENACTED') return 'enacted';
  if (head === 'VETOED' || head === 'OVERRIDE_PASS_OVER' || status === 'PROV_KILL:VETO') {
    return 'vetoed';
  }
  if (head === 'FAIL' || head === 'PROV_KILL') return 'failed';
  return rest === '' ? status.toLowerCase() : 'other';
}

function congressJsonFields(bill: Json): SourceFields {
  // unitedstates/congress lists actions oldest first.
  const last = list(bill.actions).at(-1);
  const sponsor = isObject(bill.sponsor) ? bill.sponsor : null;
  return {
    format: 'congress-json',
    latestActionText: last === undefined ? undefined : text(last.text),
    latestActionDate: last === undefined ? undefined : day(last.acted_at),
    // The title GovInfo displays where the file has one, else the short, else the official.
    title:
      text(list(bill.titles).find((title) => title.type === 'display')?.title) ??
      text(bill.short_title) ??
      text(bill.official_title),
    introducedDate: day(bill.introduced_at),
    sponsor: sponsor === null ? null : text(sponsor.bioguide_id),
    cosponsorCount: list(bill.cosponsors).filter(
      (cosponsor) => text(cosponsor.withdrawn_at) === null,
    ).length,
    status: congressJsonStatus(bill),
  };
}

function openStatesFields(bill: Json): SourceFields {
  const actions = list(bill.actions);
  // The scraper of the US Congress lists actions newest first (as GovInfo does), the states'
  // scrapers oldest first; `order`, where given, decides.
  const jurisdiction = JSON.stringify(bill.jurisdiction ?? '');
  const newestFirst = jurisdiction.includes('country:us/government');
  const listed = newestFirst ? [...actions].reverse() : actions;
  const ordered = listed
    .map((action, position) => ({ action, position }))
    .sort((a, b) => {
      const da = day(a.action.date) ?? '';
      const db = day(b.action.date) ?? '';
      if (da !== db) return da < db ? -1 : 1;
      const oa = typeof a.action.order === 'number' ? a.action.order : null;
      const ob = typeof b.action.order === 'number' ? b.action.order : null;
      if (oa !== null && ob !== null && oa !== ob) return oa - ob;
      return a.position - b.position;
    });
  const last = ordered.at(-1)?.action;
  // The earliest: the US scraper classifies the second chamber's receipt of a bill as an
  // introduction too ("Received in the Senate. Read the first time.", H.R. 1156 of the 119th).
  const introduction = actions
    .filter(
      (action) =>
        Array.isArray(action.classification) && action.classification.includes('introduction'),
    )
    .sort((a, b) => ((day(a.date) ?? '') < (day(b.date) ?? '') ? -1 : 1))[0];
  const sponsorships = list(bill.sponsorships);
  const primary = sponsorships.find((sponsor) => sponsor.primary === true);
  return {
    format: 'openstates',
    latestActionText: last === undefined ? undefined : text(last.description),
    latestActionDate: last === undefined ? undefined : day(last.date),
    title: text(bill.title),
    introducedDate: introduction === undefined ? undefined : day(introduction.date),
    sponsor: primary === undefined ? undefined : text(primary.name),
    cosponsorCount: sponsorships.filter((sponsor) => sponsor.primary !== true).length,
    status: actions.some(
      (action) =>
        Array.isArray(action.classification) && action.classification.includes('became-law'),
    )
      ? 'enacted'
      : 'not enacted',
  };
}

const LEGISCAN_STATUS: Readonly<Record<number, string>> = {
  1: 'introduced',
  2: 'passed-one-chamber',
  3: 'passed-both',
  4: 'enacted',
  5: 'vetoed',
  6: 'failed',
};

function legiScanFields(bill: Json): SourceFields {
  // LegiScan's history is oldest first; a stable sort by date keeps each day as listed.
  const history = list(bill.history)
    .map((entry, position) => ({ entry, position }))
    .sort((a, b) => {
      const da = day(a.entry.date) ?? '';
      const db = day(b.entry.date) ?? '';
      return da === db ? a.position - b.position : da < db ? -1 : 1;
    });
  const last = history.at(-1)?.entry;
  const sponsors = list(bill.sponsors);
  // sponsor_type_id: 0 sponsor (unspecified), 1 primary, 2 co-sponsor, 3 joint sponsor.
  const primary = sponsors.find((sponsor) => sponsor.sponsor_type_id === 1) ?? sponsors[0];
  return {
    format: 'legiscan',
    latestActionText: last === undefined ? undefined : text(last.action),
    latestActionDate: last === undefined ? undefined : day(last.date),
    title: text(bill.title),
    sponsor: primary === undefined ? undefined : text(primary.people_id),
    cosponsorCount: sponsors.filter(
      (sponsor) => sponsor.sponsor_type_id === 2 || sponsor.sponsor_type_id === 3,
    ).length,
    // LegiScan's status codes (its API manual): 1 Introduced, 2 Engrossed (passed its first
    // chamber), 3 Enrolled (passed both), 4 Passed (became law), 5 Vetoed, 6 Failed.
    status:
      typeof bill.status === 'number'
        ? (LEGISCAN_STATUS[bill.status] ?? `code ${bill.status}`)
        : undefined,
  };
}

/** The source's own fields of the one bill a file holds, or null when it holds none. */
export function readSourceFields(bytes: Uint8Array): SourceFields | null {
  const source = new TextDecoder().decode(bytes);
  const head = source.trimStart();
  if (head.startsWith('<')) return source.includes('<billStatus') ? billStatusFields(source) : null;
  if (!head.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  if (isObject(value.bill) && value.bill.bill_id !== undefined) return legiScanFields(value.bill);
  if (typeof value.bill_id === 'string' && value.bill_type !== undefined)
    return congressJsonFields(value);
  // (Vote events carry a session and an identifier too, but no title and no actions.)
  if (
    value.legislative_session !== undefined &&
    typeof value.title === 'string' &&
    Array.isArray(value.actions)
  )
    return openStatesFields(value);
  return null;
}
