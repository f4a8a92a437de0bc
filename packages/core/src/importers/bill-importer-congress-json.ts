import type { BillDraft, BillOverrides, BillText, Sponsor } from '../bills/bill.ts';
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
import { safeUrl } from '../bills/bill-text-cleaning.ts';

// The unitedstates/congress scraper's bills/<type>/<type><n>/data.json, one bill per file,
// derived from the same GovInfo BILLSTATUS data. It spells sponsors "Last, First", carries the
// scraper's own status words (REFERRED, PASS_OVER:HOUSE, ENACTED:SIGNED ...) and keeps vote
// tallies only in the action text, as BILLSTATUS does.

// Beside a bill's data.json, the scraper's GovInfo task writes one text-versions/<code>/data.json
// per text version it fetched: {"bill_version_id": "hr1-116-ih", "version_code": "ih",
// "issued_on": "2019-01-03", "urls": {"html": …, "pdf": …, "xml": …}}. A bill's versions are read
// from those files where the data has them (the bill's own data.json lists none).

/** Whether parsed JSON is a text-versions/<code>/data.json of the scraper. */
export function isCongressTextVersion(value: unknown): value is JsonObject {
  return (
    isObject(value) &&
    /^[a-z]+\d+-\d+-[a-z0-9]+$/.test(str(field(value, 'bill_version_id')) ?? '') &&
    isObject(field(value, 'urls'))
  );
}

/** Where the scraper puts a text version's data.json. */
export const CONGRESS_TEXT_VERSION_PATH = /(?:^|\/)text-versions\/[a-z0-9]+\/data\.json$/i;

// GovInfo's names of the version codes, as BILLSTATUS's textVersions spell them.
const VERSION_NAMES: Readonly<Record<string, string>> = {
  ih: 'Introduced in House',
  is: 'Introduced in Senate',
  rh: 'Reported in House',
  rs: 'Reported in Senate',
  rfh: 'Referred in House',
  rfs: 'Referred in Senate',
  rdh: 'Received in House',
  rds: 'Received in Senate',
  eh: 'Engrossed in House',
  es: 'Engrossed in Senate',
  eah: 'Engrossed Amendment House',
  eas: 'Engrossed Amendment Senate',
  enr: 'Enrolled Bill',
  pch: 'Placed on Calendar House',
  pcs: 'Placed on Calendar Senate',
  ath: 'Agreed to House',
  ats: 'Agreed to Senate',
  cph: 'Considered and Passed House',
  cps: 'Considered and Passed Senate',
  pp: 'Public Print',
};

/** A bill's text versions by its bill_id ("hr1-116"), from text-versions files. */
export type CongressTextVersions = ReadonlyMap<string, readonly BillText[]>;

/** A text version file's version, with the bill_id it belongs to; null when it is not one. */
export function congressTextVersion(value: unknown): { billId: string; text: BillText } | null {
  if (!isCongressTextVersion(value)) return null;
  const versionId = str(field(value, 'bill_version_id')) ?? '';
  const cut = versionId.lastIndexOf('-');
  const code = str(field(value, 'version_code')) ?? versionId.slice(cut + 1);
  const urls = field(value, 'urls');
  // HTML first: GovInfo's HTML is the text in a <pre>, which "Get text" reads with its sections.
  const html = safeUrl(field(urls, 'html'));
  const xml = safeUrl(field(urls, 'xml'));
  const pdf = safeUrl(field(urls, 'pdf'));
  const url = html ?? xml ?? pdf;
  return {
    billId: versionId.slice(0, cut),
    text: {
      date: toIsoDate(field(value, 'issued_on')),
      type: VERSION_NAMES[code.toLowerCase()] ?? code.toUpperCase(),
      url,
      mimeType:
        url === null
          ? null
          : url === html
            ? 'text/html'
            : url === xml
              ? 'text/xml'
              : 'application/pdf',
      text: null,
    },
  };
}

/** The text versions among `files` (by their content), oldest first per bill. */
export function congressTextVersions(files: readonly ImportFile[]): Map<string, BillText[]> {
  const byBill = new Map<string, BillText[]>();
  for (const file of files) {
    const parsed = parseJsonBytes(file.bytes);
    const version = parsed.ok ? congressTextVersion(parsed.value) : null;
    if (version === null) continue;
    const list = byBill.get(version.billId);
    if (list) list.push(version.text);
    else byBill.set(version.billId, [version.text]);
  }
  for (const list of byBill.values()) {
    list.sort((a, b) => (a.date ?? '').localeCompare(b.date ?? '') || a.type.localeCompare(b.type));
  }
  return byBill;
}

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

export function congressJsonDraft(
  bill: JsonObject,
  textVersions: CongressTextVersions = new Map(),
): BillDraft {
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
    texts: [...(textVersions.get(str(field(bill, 'bill_id')) ?? '') ?? [])],
    votes: rollCallsFromCongressActions(actions),
    url:
      congress !== null && type !== null && number !== null
        ? congressGovUrl(congress, type, number)
        : null,
  };
}

/**
 * Bills from data.json files, one outcome per bill file; text-version files among them give the
 * bills their versions (with `textVersions`, those read beforehand from other files too) and
 * yield no outcome of their own.
 */
export function* readCongressJsonRecords(
  files: readonly ImportFile[],
  overrides: BillOverrides = {},
  textVersions?: CongressTextVersions,
): Generator<RecordOutcome> {
  const versions = textVersions ?? congressTextVersions(files);
  for (const file of files) {
    const parsed = parseJsonBytes(file.bytes);
    if (parsed.ok && isCongressTextVersion(parsed.value)) continue;
    yield guarded(file.name, null, () => {
      if (!parsed.ok) return failure(file.name, null, parsed.reason);
      if (!isCongressJson(parsed.value))
        return failure(file.name, null, 'not a congress data.json bill');
      const label = str(field(parsed.value, 'bill_id'));
      return outcomeFromDraft(
        file.name,
        label,
        congressJsonDraft(parsed.value, versions),
        overrides,
      );
    });
  }
}

export function importCongressJson(
  files: readonly ImportFile[],
  overrides: BillOverrides = {},
): BillImportResult {
  return collectOutcomes(readCongressJsonRecords(files, overrides));
}
