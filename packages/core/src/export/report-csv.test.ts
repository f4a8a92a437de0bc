import { describe, expect, it } from 'vitest';
import { parseCsv } from '../encoding/csv-table.ts';
import type { Annotation } from '../store/local-records.ts';
import { MAX_CELL_CHARACTERS, reportColumns, snapshotToReportCsv } from './report-csv.ts';
import { storedBill } from '../test-support/bill-command-harness.ts';
import type { UserDataSnapshot } from './user-data-export.ts';
import { readUserDataFile } from './user-data-import.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';

const AT = '2025-01-15T12:00:00.000Z';
const formatDate = (date: string) => `[${date}]`;

function note(id: string, billId: string, exact: string, text: string): Annotation {
  return {
    id,
    billId,
    quote: { exact, prefix: '', suffix: '' },
    position: { start: 0, end: exact.length },
    target: 'title',
    color: '#ffd54f',
    note: text,
    createdAt: AT,
    updatedAt: AT,
  };
}

function rowsOf(text: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  return parseCsv(text.slice(1)).records.map((record) => record.cells);
}

const tracked = storedBill(12, {
  title: '=HYPERLINK("http://evil.example") Tenant protections',
  status: 'passed-one-chamber',
  statusDate: '2025-03-02',
  sponsors: [{ name: 'Jane Roe', role: 'sponsor', party: 'D', externalId: null }],
  actions: [
    { date: '2025-01-03', text: 'Introduced in House', chamber: 'lower' },
    { date: '2025-03-02', text: 'Passed House', chamber: 'lower' },
  ],
});
const later = storedBill(2);

const snapshot: UserDataSnapshot = {
  selection: 'all',
  bills: [tracked, later],
  tags: [
    { id: 't-1', name: 'Renters', color: '#123abc', createdAt: AT, updatedAt: AT },
    { id: 't-2', name: 'Housing', color: '#123abc', createdAt: AT, updatedAt: AT },
  ],
  billTags: [
    { id: `${tracked.id}|t-1`, billId: tracked.id, tagId: 't-1', createdAt: AT },
    { id: `${tracked.id}|t-2`, billId: tracked.id, tagId: 't-2', createdAt: AT },
  ],
  positions: [
    {
      billId: tracked.id,
      position: 'support',
      reason: '+1 for renters <b>now</b>',
      updatedAt: AT,
    },
  ],
  decisions: [
    { billId: tracked.id, decision: 'track', decidedAt: AT },
    { billId: later.id, decision: 'later', decidedAt: AT },
  ],
  annotations: [
    note('a-1', tracked.id, 'Tenant', 'Who counts as a tenant?'),
    note('a-2', tracked.id, 'protections', ''),
  ],
};

describe('the report CSV', () => {
  it('writes one plain row per bill: names, words and the reader’s dates, not codes', () => {
    const report = snapshotToReportCsv(snapshot, { formatDate });
    expect(report).toMatchObject({ rows: 2, cutCells: 0 });
    const [header, first, second] = rowsOf(report.text);
    expect(header).toEqual([...reportColumns]);
    const row = Object.fromEntries(reportColumns.map((column, at) => [column, first?.[at]]));
    expect(row).toEqual({
      Bill: 'H.R. 12 · 119th Congress',
      Jurisdiction: 'U.S. Congress',
      Session: '119th Congress',
      Number: 'H.R. 12',
      // A formula is neutralised, as in every export.
      Title: `'=HYPERLINK("http://evil.example") Tenant protections`,
      Status: 'Passed one chamber',
      'Status date': '[2025-03-02]',
      'Latest action date': '[2025-03-02]',
      'Latest action': 'Passed House',
      'Latest vote date': '',
      'Latest vote': '',
      'Latest vote result': '',
      'Latest vote totals': '',
      Sponsor: 'Jane Roe',
      Tags: 'Housing; Renters',
      Position: 'Support',
      Reason: "'+1 for renters <b>now</b>",
      Decision: 'Tracked',
      Notes: '“Tenant”: Who counts as a tenant?',
    });
    expect(second?.[0]).toBe('H.R. 2 · 119th Congress');
    expect(second?.slice(-3)).toEqual(['', 'Later', '']);
  });

  it('gives the latest vote with its result and totals, an undated vote older than a dated one', () => {
    const voted = storedBill(14, {
      votes: [
        {
          date: '2025-05-01',
          chamber: 'lower',
          motion: 'On Passage',
          yes: 218,
          no: 210,
          other: 7,
          passed: true,
        },
        {
          date: null,
          chamber: 'upper',
          motion: 'Undated voice vote',
          yes: null,
          no: null,
          other: null,
          passed: null,
        },
        {
          date: '2025-04-02',
          chamber: 'lower',
          motion: 'On the Rule',
          yes: 200,
          no: null,
          other: 3,
          passed: false,
        },
      ],
    });
    const report = snapshotToReportCsv({ ...snapshot, bills: [voted] }, { formatDate });
    const [, row] = rowsOf(report.text);
    const cells = Object.fromEntries(reportColumns.map((column, at) => [column, row?.[at]]));
    expect(cells).toMatchObject({
      'Latest vote date': '[2025-05-01]',
      'Latest vote': 'On Passage',
      'Latest vote result': 'Passed',
      'Latest vote totals': '218 yes, 210 no, 7 other',
    });
    const older = storedBill(15, { votes: voted.votes.slice(2) });
    const [, failed] = rowsOf(
      snapshotToReportCsv({ ...snapshot, bills: [older] }, { formatDate }).text,
    );
    expect(failed?.slice(9, 13)).toEqual([
      '[2025-04-02]',
      'On the Rule',
      'Failed',
      '200 yes, no not recorded, 3 other',
    ]);
  });

  it('gives the status date and the newest dated action, as the screens do', () => {
    const heard = storedBill(13, {
      status: 'in-committee',
      statusDate: '2025-07-24',
      actions: [
        { date: '2025-07-24', text: 'Referred to Judiciary', chamber: 'lower' },
        { date: '2025-07-29', text: 'Hearing held', chamber: 'lower' },
        { date: null, text: 'Undated note', chamber: null },
      ],
    });
    const report = snapshotToReportCsv({ ...snapshot, bills: [heard] }, { formatDate });
    const [header, first] = rowsOf(report.text);
    const cell = (column: string) => first?.[header?.indexOf(column) ?? -1];
    expect(cell('Status date')).toBe('[2025-07-24]');
    expect(cell('Latest action date')).toBe('[2025-07-29]');
    expect(cell('Latest action')).toBe('Hearing held');
  });

  it('cuts a cell longer than a spreadsheet holds, and says how many were cut', () => {
    const long = 'word '.repeat(10_000);
    const report = snapshotToReportCsv(
      {
        ...snapshot,
        annotations: [note('a-3', tracked.id, 'Tenant', long), note('a-4', tracked.id, 'x', long)],
      },
      { formatDate },
    );
    expect(report.cutCells).toBe(1);
    const notes = rowsOf(report.text)[1]?.at(-1) ?? '';
    expect(notes).toHaveLength(MAX_CELL_CHARACTERS);
    expect(notes.endsWith('…')).toBe(true);
  });
});

describe('a report brought back to Import', () => {
  it('is refused with a message that says what it is and what to import instead', () => {
    const report = snapshotToReportCsv(snapshot, { formatDate });
    expect(() =>
      readUserDataFile({ name: 'report.csv', bytes: encodeUtf8(report.text) }, AT),
    ).toThrow(
      'This is a Docket report, made for reading in a spreadsheet; it cannot be imported. Import a CSV or JSON export instead.',
    );
  });
});
