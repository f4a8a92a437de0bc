import type { Bill, Sponsor } from '../bills/bill.ts';
import { toCsv } from '../encoding/csv-table.ts';
import type { DocketCsvColumn } from '../importers/docket-csv-layout.ts';
import {
  docketCsvColumns,
  encodeItem,
  encodeList,
  neutralizeFormula,
} from '../importers/docket-csv-layout.ts';

// Writes bills as Docket CSV (layout in docket-csv-layout.ts), the inverse of
// bill-importer-docket-csv.ts: importing the output gives back the same bills, hashes included.

export interface DocketCsvOptions {
  /** Start with a UTF-8 byte-order mark, which Excel needs to read UTF-8 (default true). */
  byteOrderMark?: boolean;
  /** Include bill texts themselves, not only their links (default true). Texts can exceed the
   *  32,767 characters a spreadsheet cell holds; leave them out for files meant for Excel. */
  includeTextBodies?: boolean;
}

function sponsorItem(sponsor: Sponsor): string {
  const parts = [sponsor.name, sponsor.party, sponsor.role, sponsor.externalId];
  // A fifth part only when there is a district, so a bill without one is written as before.
  return encodeItem(sponsor.district === undefined ? parts : [...parts, sponsor.district]);
}

function cells(bill: Bill, includeTextBodies: boolean): Record<DocketCsvColumn, string> {
  return {
    jurisdiction: bill.jurisdiction,
    session: bill.session,
    identifier: bill.identifier,
    title: bill.title,
    alternative_titles: encodeList(
      (bill.alternativeTitles ?? []).map((title) => encodeItem([title])),
    ),
    summary: bill.summary ?? '',
    status: bill.status,
    status_date: bill.statusDate ?? '',
    raw_status: bill.rawStatus ?? '',
    introduced_date: bill.introducedDate ?? '',
    sponsors: encodeList(bill.sponsors.map(sponsorItem)),
    cosponsors: encodeList(bill.cosponsors.map(sponsorItem)),
    subjects: encodeList(bill.subjects.map((subject) => encodeItem([subject]))),
    actions: encodeList(
      bill.actions.map((action) => encodeItem([action.date, action.chamber, action.text])),
    ),
    texts: encodeList(
      bill.texts.map((text) =>
        encodeItem([
          text.date,
          text.type,
          text.url,
          text.mimeType,
          includeTextBodies ? text.text : null,
          // LegiScan's doc_id, by which its API serves the version, only where there is one.
          ...(text.docId === undefined ? [] : [String(text.docId)]),
        ]),
      ),
    ),
    votes: encodeList(
      bill.votes.map((vote) =>
        encodeItem([
          vote.date,
          vote.chamber,
          vote.motion,
          vote.yes === null ? null : String(vote.yes),
          vote.no === null ? null : String(vote.no),
          vote.other === null ? null : String(vote.other),
          vote.passed === null ? null : vote.passed ? 'passed' : 'failed',
        ]),
      ),
    ),
    url: bill.url ?? '',
    source: bill.source,
    source_id: bill.sourceId ?? '',
    id: bill.id,
  };
}

/** Docket CSV text for the bills, one row each, CRLF line ends. */
export function exportDocketCsv(bills: readonly Bill[], options: DocketCsvOptions = {}): string {
  const includeTextBodies = options.includeTextBodies ?? true;
  const rows = bills.map((bill) => {
    const values = cells(bill, includeTextBodies);
    return docketCsvColumns.map((column) => neutralizeFormula(values[column]));
  });
  const csv = toCsv([[...docketCsvColumns], ...rows]);
  return options.byteOrderMark === false ? csv : `\uFEFF${csv}`;
}
