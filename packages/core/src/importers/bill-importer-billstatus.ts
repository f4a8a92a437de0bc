import type { BillAction, BillDraft, BillOverrides, BillText, Sponsor } from '../bills/bill.ts';
import type { Chamber } from '../bills/bill-vocabulary.ts';
import { inSourceOrder } from '../bills/bill-merge.ts';
import { safeUrl, timeOfDay, toIsoDate } from '../bills/bill-text-cleaning.ts';
import type { BillImportResult, ImportFile, RecordOutcome } from './bill-import-record.ts';
import { collectOutcomes, failure, guarded, outcomeFromDraft } from './bill-import-record.ts';
import type { StatusEvent } from '../bills/bill-status-mapping.ts';
import { billStatusActionEvent, statusFromEvents } from '../bills/bill-status-mapping.ts';
import {
  chamberFromCongressText,
  congressDistrict,
  congressGovUrl,
  nameFromCongressFullName,
  rollCallsFromCongressActions,
} from './congress-action-text.ts';
import { htmlToText } from '../text/html-to-text.ts';
import type { JsonObject } from '../encoding/loose-json.ts';
import { field, fieldAt, isObject, objects, str } from '../encoding/loose-json.ts';
import { decodeXmlBytes, decodeXmlHead } from '../text/xml-text.ts';
import { readXmlTree } from './xml-element-tree.ts';

// GovInfo BILLSTATUS XML (the Library of Congress's bill status bulk data), one bill per file.
// Two schemas are in circulation: the original one (<billNumber>, <billType>,
// <summaries><billSummaries><item>, <subjects><billSubjects>, <committees><billCommittees>) and
// version 3.0.0 from 2022 (<version>3.0.0</version> under the root, <number>, <type>,
// <summaries><summary>, <subjects><legislativeSubjects>). Both are read here, field by field,
// taking whichever spelling is present.

/** Whether text looks like a BILLSTATUS document (root element billStatus). */
export function isBillStatusXml(head: string): boolean {
  return /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<billStatus[\s>]/.test(head);
}

export function isBillStatusFile(file: ImportFile): boolean {
  return isBillStatusXml(decodeXmlHead(file.bytes, 1024));
}

// Lists whose single member would otherwise be read as a plain object.
const ALWAYS_LISTS: ReadonlySet<string> = new Set(['item', 'summary', 'recordedVote']);

function items(value: unknown): JsonObject[] {
  return objects(field(value, 'item'));
}

function chamberOfAction(action: JsonObject, text: string): Chamber | null {
  switch (str(fieldAt(action, 'sourceSystem', 'code'))) {
    case '0':
      return 'upper';
    case '1':
    case '2':
      return 'lower';
    default:
      return chamberFromCongressText(text);
  }
}

function sponsorFrom(item: JsonObject, role: Sponsor['role']): Sponsor | null {
  const fullName = str(field(item, 'fullName'));
  const fallback = [str(field(item, 'firstName')), str(field(item, 'lastName'))]
    .filter((part) => part !== null)
    .join(' ');
  const name = fullName === null ? fallback : nameFromCongressFullName(fullName);
  if (name === '') return null;
  const district = congressDistrict(str(field(item, 'state')), str(field(item, 'district')));
  return {
    name,
    role,
    party: str(field(item, 'party')),
    ...(district === null ? {} : { district }),
    externalId: str(field(item, 'bioguideId')) ?? str(fieldAt(item, 'identifiers', 'bioguideId')),
  };
}

function latestSummary(bill: JsonObject): string | null {
  const summaries = [
    ...items(fieldAt(bill, 'summaries', 'billSummaries')),
    ...objects(fieldAt(bill, 'summaries', 'summary')),
  ];
  let best: { key: string; text: string } | null = null;
  for (const summary of summaries) {
    const text = str(field(summary, 'text'));
    if (text === null) continue;
    const key = `${str(field(summary, 'actionDate')) ?? ''}|${str(field(summary, 'updateDate')) ?? ''}`;
    if (best === null || key >= best.key) best = { key, text };
  }
  return best === null ? null : htmlToText(best.text);
}

function subjectsFrom(bill: JsonObject): string[] {
  const subjects = field(bill, 'subjects');
  const billSubjects = field(subjects, 'billSubjects');
  const names = [
    ...items(field(billSubjects, 'legislativeSubjects')),
    ...items(field(billSubjects, 'otherSubjects')),
    ...items(field(subjects, 'legislativeSubjects')),
  ].map((item) => str(field(item, 'name')));
  names.push(
    str(fieldAt(billSubjects, 'policyArea', 'name')),
    str(fieldAt(subjects, 'policyArea', 'name')),
    str(fieldAt(bill, 'policyArea', 'name')),
    str(fieldAt(billSubjects, 'primarySubject', 'name')),
    str(fieldAt(bill, 'primarySubject', 'name')),
  );
  return names.filter((name): name is string => name !== null);
}

function mimeFromUrl(url: string): string | null {
  if (/\.xml$/i.test(url)) return 'text/xml';
  if (/\.pdf$/i.test(url)) return 'application/pdf';
  if (/\.html?$/i.test(url)) return 'text/html';
  if (/\.txt$/i.test(url)) return 'text/plain';
  return null;
}

function textsFrom(bill: JsonObject): BillText[] {
  const texts: BillText[] = [];
  for (const version of items(field(bill, 'textVersions'))) {
    const type = str(field(version, 'type'));
    const urls = items(field(version, 'formats'))
      .map((format) => safeUrl(field(format, 'url')))
      .filter((url): url is string => url !== null);
    // Version 3 files end the list with an empty <item>; it is no version.
    if (type === null && urls.length === 0) continue;
    const url = urls.find((candidate) => /\.pdf$/i.test(candidate)) ?? urls[0] ?? null;
    texts.push({
      date: toIsoDate(field(version, 'date')),
      type: type ?? 'Text',
      url,
      mimeType: url === null ? null : mimeFromUrl(url),
      text: null,
    });
  }
  // Listed newest first, as actions are.
  return inSourceOrder(
    texts.map((text) => ({ item: text, date: text.date, time: null })),
    { listing: 'newest-first' },
  );
}

// Action codes of an introduction (Library of Congress 1000/10000, the House's Intro-H): it opens
// its day whatever else happened on it.
const INTRODUCTION_CODES = new Set(['1000', '10000', 'Intro-H', 'Intro-S']);

function sameText(a: string, b: string): boolean {
  return a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();
}

/** An action of a BILLSTATUS bill, with the action code its status is read from. */
interface CodedAction {
  date: string | null;
  text: string;
  chamber: Chamber | null;
  code: string | null;
}

/**
 * The bill's actions in the order they happened, and the text and date of its latestAction.
 * GovInfo lists actions newest first (the BILLSTATUS user guide); a day's actions are told apart
 * by actionTime where the clerk recorded one, and the bill's latestAction names the last.
 */
function orderedActions(bill: JsonObject): {
  ordered: CodedAction[];
  latestText: string | null;
  latestDate: string | null;
} {
  const latestAction = fieldAt(bill, 'latestAction');
  const latestText = str(field(latestAction, 'text'));
  const latestDate = toIsoDate(field(latestAction, 'actionDate'));
  const ordered = inSourceOrder(
    items(field(bill, 'actions')).map((action) => {
      const text = str(field(action, 'text')) ?? '';
      const code = str(field(action, 'actionCode'));
      const date = toIsoDate(field(action, 'actionDate'));
      return {
        item: { date, text, chamber: chamberOfAction(action, text), code },
        date,
        time: timeOfDay(field(action, 'actionTime')),
        opensDay: code !== null && INTRODUCTION_CODES.has(code),
      };
    }),
    {
      listing: 'newest-first',
      isLatest: (action) =>
        latestText !== null && action.date === latestDate && sameText(action.text, latestText),
    },
  );
  return { ordered, latestText, latestDate };
}

/** The status the bill's actions reach: enacted on its latest action's date when it lists a law
 *  and no action says it was enacted. */
function billStatusOf(
  bill: JsonObject,
  ordered: readonly CodedAction[],
  latestDate: string | null,
): Pick<BillDraft, 'status' | 'statusDate'> {
  const events = ordered
    .map((action) => billStatusActionEvent(action.code, action.text, action.date, action.chamber))
    .filter((event): event is StatusEvent => event !== null);
  if (items(field(bill, 'laws')).length > 0 && !events.some((event) => event.kind === 'enacted')) {
    events.push({ kind: 'enacted', date: latestDate, chamber: 'executive' });
  }
  return statusFromEvents(events);
}

/** The bill's sponsors and its cosponsors who have not withdrawn. */
function sponsorsOf(bill: JsonObject): { sponsors: Sponsor[]; cosponsors: Sponsor[] } {
  const sponsors = items(field(bill, 'sponsors'))
    .map((item) => sponsorFrom(item, 'primary'))
    .filter((sponsor): sponsor is Sponsor => sponsor !== null);
  const cosponsors = items(field(bill, 'cosponsors'))
    // A withdrawn cosponsor is no longer one; data.json lists them with withdrawn_at and is read
    // the same way.
    .filter((item) => str(field(item, 'sponsorshipWithdrawnDate')) === null)
    .map((item) => sponsorFrom(item, 'cosponsor'))
    .filter((sponsor): sponsor is Sponsor => sponsor !== null);
  return { sponsors, cosponsors };
}

/** The draft of the bill in a parsed BILLSTATUS document, or the reason there is none. */
export function billStatusDraft(
  document: unknown,
): { draft: BillDraft; label: string | null } | { reason: string } {
  const bill = fieldAt(document, 'billStatus', 'bill');
  if (!isObject(bill)) return { reason: 'no <billStatus><bill> element' };
  const number = str(field(bill, 'billNumber')) ?? str(field(bill, 'number'));
  const type = str(field(bill, 'billType')) ?? str(field(bill, 'type'));
  const congress = str(field(bill, 'congress'));
  const label = type !== null && number !== null ? `${type} ${number}` : null;
  // GovInfo writes a House bill's type as 'H' in places; everywhere else it is 'HR'.
  const typeCode = type === null ? null : type.toUpperCase() === 'H' ? 'hr' : type.toLowerCase();

  const { ordered, latestText, latestDate } = orderedActions(bill);
  const { status, statusDate } = billStatusOf(bill, ordered, latestDate);
  const { sponsors, cosponsors } = sponsorsOf(bill);
  const actions: BillAction[] = ordered.map(({ date, text, chamber }) => ({ date, text, chamber }));

  const draft: BillDraft = {
    source: 'billstatus',
    sourceId:
      typeCode !== null && number !== null && congress !== null
        ? `${typeCode}${number}-${congress}`
        : null,
    jurisdiction: 'us',
    session: congress,
    identifier: label,
    title: str(field(bill, 'title')),
    alternativeTitles: items(field(bill, 'titles')).map((title) => str(field(title, 'title'))),
    summary: latestSummary(bill),
    introducedDate: toIsoDate(field(bill, 'introducedDate')),
    status,
    statusDate,
    rawStatus: latestText ?? actions.at(-1)?.text ?? null,
    sponsors,
    cosponsors,
    subjects: subjectsFrom(bill),
    actions,
    texts: textsFrom(bill),
    votes: rollCallsFromCongressActions(actions),
    url:
      congress !== null && typeCode !== null && number !== null
        ? congressGovUrl(congress, typeCode, number)
        : null,
  };
  return { draft, label };
}

/** Parses BILLSTATUS text, refusing a damaged file (cut off, mismatched markup) rather than
 *  turning it into a bill with parts missing, and a DOCTYPE, whose entities are never expanded. */
export function parseBillStatusXml(
  text: string,
): { ok: true; document: unknown } | { ok: false; reason: string } {
  return readXmlTree(text, ALWAYS_LISTS);
}

/** Bills from BILLSTATUS XML files, one outcome per file. */
export function* readBillStatusRecords(
  files: readonly ImportFile[],
  overrides: BillOverrides = {},
): Generator<RecordOutcome> {
  for (const file of files) {
    yield guarded(file.name, null, () => {
      const decoded = decodeXmlBytes(file.bytes);
      if (!decoded.ok) return failure(file.name, null, decoded.reason);
      const parsed = parseBillStatusXml(decoded.text);
      if (!parsed.ok) return failure(file.name, null, parsed.reason);
      const result = billStatusDraft(parsed.document);
      if ('reason' in result) return failure(file.name, null, result.reason);
      return outcomeFromDraft(file.name, result.label, result.draft, overrides);
    });
  }
}

export function importBillStatus(
  files: readonly ImportFile[],
  overrides: BillOverrides = {},
): BillImportResult {
  return collectOutcomes(readBillStatusRecords(files, overrides));
}
