import type { BillDraft, BillOverrides, Sponsor } from '../bills/bill.ts';
import type { Chamber } from '../bills/bill-vocabulary.ts';
import { inSourceOrder } from '../bills/bill-merge.ts';
import { timeOfTimestamp, toIsoDate } from '../bills/bill-text-cleaning.ts';
import type { BillImportResult, ImportFile, RecordOutcome } from './bill-import-record.ts';
import { collectOutcomes, failure, guarded, outcomeFromDraft } from './bill-import-record.ts';
import { statusFromCongressJson } from '../bills/bill-status-mapping.ts';
import {
  chamberFromCongressText,
  congressDistrict,
  congressGovUrl,
  nameFromLastFirst,
  rollCallsFromCongressActions,
} from './congress-action-text.ts';
import type { JsonObject } from '../encoding/loose-json.ts';
import { arr, field, isObject, objects, parseJsonBytes, str } from '../encoding/loose-json.ts';

// The unitedstates/congress scraper's bills/<type>/<type><n>/data.json, one bill per file,
// derived from the same GovInfo BILLSTATUS data. It spells sponsors "Last, First", carries the
// scraper's own status words (REFERRED, PASS_OVER:HOUSE, ENACTED:SIGNED ...) and keeps vote
// tallies only in the action text, as BILLSTATUS does.

/** Whether parsed JSON is a data.json bill. */
export function isCongressJson(value: unknown): value is JsonObject {
  return (
    isObject(value) &&
    /^[a-z]+\d+-\d+$/.test(str(field(value, 'bill_id')) ?? '') &&
    str(field(value, 'bill_type')) !== null &&
    field(value, 'congress') !== undefined
  );
}

function chamberOf(action: JsonObject, text: string): Chamber | null {
  switch (str(field(action, 'where'))?.toLowerCase()) {
    case 'h':
      return 'lower';
    case 's':
      return 'upper';
    default:
      return chamberFromCongressText(text);
  }
}

function sponsorFrom(person: unknown, role: Sponsor['role']): Sponsor | null {
  const name = str(field(person, 'name'));
  if (name === null) return null;
  const district = congressDistrict(str(field(person, 'state')), str(field(person, 'district')));
  return {
    name: nameFromLastFirst(name),
    role,
    party: str(field(person, 'party')),
    ...(district === null ? {} : { district }),
    externalId: str(field(person, 'bioguide_id')) ?? str(field(person, 'thomas_id')),
  };
}

function titleOf(bill: JsonObject): string | null {
  // The display title is what GovInfo's <title> holds, so both sources show the same title;
  // files of older Congresses have none, and then the sources' convention holds: the short title,
  // else the official one. A popular title (a nickname the press gave the bill) is only ever an
  // alternative title.
  const display = objects(field(bill, 'titles')).find(
    (title) => str(field(title, 'type')) === 'display',
  );
  return (
    str(field(display, 'title')) ??
    str(field(bill, 'short_title')) ??
    str(field(bill, 'official_title'))
  );
}

/** Every title the file gives, for search; finalizeBill drops the display title itself. */
function alternativeTitlesOf(bill: JsonObject): (string | null)[] {
  return [
    str(field(bill, 'short_title')),
    str(field(bill, 'official_title')),
    str(field(bill, 'popular_title')),
    ...objects(field(bill, 'titles')).map((title) => str(field(title, 'title'))),
  ];
}

// GovInfo's action codes of an introduction, which the scraper keeps as action_code.
const INTRODUCTION_CODES = new Set(['1000', '10000', 'Intro-H', 'Intro-S']);

/** The status words the scraper set on actions, in the order of its (oldest-first) list. */
function actionStatuses(bill: JsonObject): { code: string; date: string | null }[] {
  return objects(field(bill, 'actions')).flatMap((action) => {
    const code = str(field(action, 'status'));
    return code === null ? [] : [{ code, date: toIsoDate(field(action, 'acted_at')) }];
  });
}

export function congressJsonDraft(bill: JsonObject): BillDraft {
  const congress = str(field(bill, 'congress'));
  const type = str(field(bill, 'bill_type'));
  const number = str(field(bill, 'number'));
  // The scraper lists actions oldest first; acted_at carries the time where GovInfo had one.
  const actions = inSourceOrder(
    objects(field(bill, 'actions')).map((action) => {
      const text = str(field(action, 'text')) ?? '';
      const date = toIsoDate(field(action, 'acted_at'));
      return {
        item: { date, text, chamber: chamberOf(action, text) },
        date,
        time: timeOfTimestamp(field(action, 'acted_at')),
        opensDay: INTRODUCTION_CODES.has(str(field(action, 'action_code')) ?? ''),
      };
    }),
    { listing: 'oldest-first' },
  );
  const enacted = field(bill, 'enacted_as') !== null && field(bill, 'enacted_as') !== undefined;
  const sponsor = sponsorFrom(field(bill, 'sponsor'), 'primary');
  return {
    source: 'congress-json',
    sourceId: str(field(bill, 'bill_id')),
    jurisdiction: 'us',
    session: congress,
    identifier: type !== null && number !== null ? `${type} ${number}` : null,
    title: titleOf(bill),
    alternativeTitles: alternativeTitlesOf(bill),
    summary: str(field(field(bill, 'summary'), 'text')),
    introducedDate: toIsoDate(field(bill, 'introduced_at')),
    ...statusFromCongressJson(
      str(field(bill, 'status')),
      toIsoDate(field(bill, 'status_at')),
      enacted,
      actionStatuses(bill),
    ),
    sponsors: sponsor === null ? [] : [sponsor],
    cosponsors: objects(field(bill, 'cosponsors'))
      .filter((cosponsor) => str(field(cosponsor, 'withdrawn_at')) === null)
      .map((cosponsor) => sponsorFrom(cosponsor, 'cosponsor'))
      .filter((cosponsor): cosponsor is Sponsor => cosponsor !== null),
    subjects: arr(field(bill, 'subjects'))
      .map(str)
      .filter((subject): subject is string => subject !== null),
    actions,
    texts: [],
    votes: rollCallsFromCongressActions(actions),
    url:
      congress !== null && type !== null && number !== null
        ? congressGovUrl(congress, type, number)
        : null,
  };
}

/** Bills from data.json files, one outcome per file. */
export function* readCongressJsonRecords(
  files: readonly ImportFile[],
  overrides: BillOverrides = {},
): Generator<RecordOutcome> {
  for (const file of files) {
    yield guarded(file.name, null, () => {
      const parsed = parseJsonBytes(file.bytes);
      if (!parsed.ok) return failure(file.name, null, parsed.reason);
      if (!isCongressJson(parsed.value))
        return failure(file.name, null, 'not a congress data.json bill');
      const label = str(field(parsed.value, 'bill_id'));
      return outcomeFromDraft(file.name, label, congressJsonDraft(parsed.value), overrides);
    });
  }
}

export function importCongressJson(
  files: readonly ImportFile[],
  overrides: BillOverrides = {},
): BillImportResult {
  return collectOutcomes(readCongressJsonRecords(files, overrides));
}
