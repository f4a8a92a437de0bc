import { describe, expect, it } from 'vitest';
import { createAnnotation, updateAnnotation } from '../commands/annotation-commands.ts';
import { parseBillListQuery } from '../lists/bill-list-query.ts';
import { parseCsvTable } from '../encoding/csv-table.ts';
import type { LocalStore } from '../store/local-store.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import { setPosition, setPositionReason } from '../commands/position-commands.ts';
import { createTag, tagBills } from '../commands/tag-commands.ts';
import {
  billIdOf,
  everything,
  outboxOf,
  rowsOf,
  storedBill,
  testContext,
  type TestContext,
} from '../test-support/bill-command-harness.ts';
import { dismissBill, laterBill, trackBill } from '../commands/triage-commands.ts';
import { randomIdSource } from '../commands/bill-command-context.ts';
import { webCrypto } from '../test-support/sync-devices.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import { exportDocketCsv } from './bill-exporter-docket-csv.ts';
import { exportUserData, type ExportFormat, type ExportSelection } from './user-data-export.ts';
import {
  applyUserDataImport,
  describeCounts,
  previewUserDataImport,
} from './user-data-import-plan.ts';
import { readUserDataFile, UserDataImportError } from './user-data-import.ts';
import { saveVersionText } from '../text/version-text-rows.ts';

// Export, then import into an empty device: the same rows come back, field for field, for each
// of the three formats, with text chosen to break CSV, spreadsheets, HTML and layout.

const NOW = '2025-02-01T10:00:00.000Z';
const FORMULA = "=cmd|' /C calc'!A0";
const HTML = '<img src=x onerror=alert(1)>';
const RTL = 'הצעת חוק לדיור — قانون الإسكان';
const newUuid = randomIdSource((bytes) => webCrypto.getRandomValues(bytes));
const REASON = `${FORMULA} keeps "rents", ${HTML}\nlow; ${RTL}`;

async function sourceDevice(): Promise<{ store: LocalStore; context: TestContext }> {
  const store = createMemoryLocalStore();
  const bills = [
    storedBill(1, {
      title: `${FORMULA}, "quoted", ${HTML} ${RTL}`,
      summary: `+SUM(A1:A9)\nline two, with "quotes"\r\nand ${HTML}`,
      subjects: ['-minus first', '@at first', 'semi; colon | pipe \\ backslash'],
      sponsors: [{ name: 'Doe; Jane | "JD"', role: 'primary', party: 'D', externalId: null }],
      texts: [
        {
          date: '2025-01-03',
          type: 'Introduced',
          url: 'https://example.org/hr1.txt',
          mimeType: 'text/plain',
          text: `SECTION 1. ${RTL}\n\nThe tenant, "${FORMULA}", shall pay.`,
        },
      ],
    }),
    storedBill(2, { title: '@SUM(1+1) the second bill' }),
    storedBill(3),
  ];
  await store.write(['bills'], (tx) => tx.putMany('bills', bills));
  const context = testContext(store);
  const formulaTag = await createTag(context, { name: '=HYPERLINK("x")', color: '#aa00ff' });
  const htmlTag = await createTag(context, { name: `${HTML} ${RTL}`, color: '#123abc' });
  const plainTag = await createTag(context, { name: 'a; b | c \\ d', color: '#1a7f37' });
  await createTag(context, { name: 'Unused', color: '#000000' });
  await tagBills(context, [billIdOf(1), billIdOf(2)], formulaTag.id);
  await tagBills(context, [billIdOf(1)], htmlTag.id);
  await tagBills(context, [billIdOf(3)], plainTag.id);
  await setPosition(context, billIdOf(1), 'support');
  await setPositionReason(context, billIdOf(1), REASON);
  await setPosition(context, billIdOf(2), 'oppose');
  await trackBill(context, billIdOf(1));
  await dismissBill(context, billIdOf(2));
  await trackBill(context, billIdOf(3));
  await createAnnotation(context, {
    billId: billIdOf(1),
    target: 'text:0',
    start: 11,
    end: 20,
    color: '#FFD54F',
    note: `${FORMULA}\n"quoted", ${HTML}\n${RTL}`,
  });
  await createAnnotation(context, {
    billId: billIdOf(1),
    target: 'title',
    start: 0,
    end: 5,
    color: '#fff176',
  });
  return { store, context };
}

async function exported(
  store: LocalStore,
  format: ExportFormat,
  selection: ExportSelection = { kind: 'all' },
) {
  return exportUserData(store, selection, format, NOW, newUuid);
}

async function importInto(store: LocalStore, name: string, text: string) {
  const bundle = readUserDataFile({ name, bytes: encodeUtf8(text) }, NOW);
  return applyUserDataImport(testContext(store, 'device-b'), bundle);
}

/** The bills without their datasets, nor the keys the store derives from them. */
function withoutDatasets<T extends { datasetIds: string[]; deckKeys?: string[] | undefined }>(
  rows: T[],
): Omit<T, 'datasetIds' | 'deckKeys'>[] {
  return rows.map((row) => {
    const copy: Partial<T> = { ...row };
    delete copy.datasetIds;
    delete copy.deckKeys;
    return copy as Omit<T, 'datasetIds' | 'deckKeys'>;
  });
}

describe('export then import into an empty device', () => {
  it('gives back bills, tags, assignments, positions and decisions from Docket JSON', async () => {
    const { store } = await sourceDevice();
    const file = await exported(store, 'json');
    expect(file.name).toBe('docket-bills-all-2025-02-01.json');
    expect(JSON.parse(file.text)).toMatchObject({ format: 'docket-export', version: 1 });

    const empty = createMemoryLocalStore();
    const done = await importInto(empty, file.name, file.text);
    expect(done.kind).toBe('json');
    expect(describeCounts(done.counts, 'added')).toBe(
      '3 bills, 4 tags, 4 tags on bills, 2 positions and 3 decisions',
    );
    for (const table of ['tags', 'billTags', 'positions', 'decisions'] as const) {
      expect(await rowsOf(empty, table)).toEqual(await rowsOf(store, table));
    }
    expect(withoutDatasets(await rowsOf(empty, 'bills'))).toEqual(
      withoutDatasets(await rowsOf(store, 'bills')),
    );
    expect((await rowsOf(empty, 'bills')).every((bill) => bill.datasetIds.length === 0)).toBe(true);
  });

  it('gives back the same from the CSV, whose cells are safe in a spreadsheet', async () => {
    const { store } = await sourceDevice();
    const file = await exported(store, 'csv');
    expect(
      file.text.startsWith(
        '\uFEFFtags,position,position_updated_at,position_reason,decision,decided_at,jurisdiction,',
      ),
    ).toBe(true);
    const table = parseCsvTable(file.text.slice(1));
    expect(table.problems).toEqual([]);
    expect(table.rows).toHaveLength(3);
    expect(table.header[table.header.length - 1]).toBe('id');
    for (const row of table.rows) {
      for (const cell of row.values.values()) expect(cell).not.toMatch(/^[=+\-@]/);
    }
    expect(table.rows[0]?.values.get('title')?.startsWith(`'${FORMULA}`)).toBe(true);
    expect(table.rows[0]?.values.get('tags')).toContain(HTML);
    expect(table.rows[0]?.values.get('position_reason')).toBe(`'${REASON}`);

    // The source device had one tag on no bill: a CSV holds tags only through its bills.
    const empty = createMemoryLocalStore();
    const done = await importInto(empty, file.name, file.text);
    expect(done.kind).toBe('csv');
    expect(done.counts.tags.added).toBe(3);
    const used = (await rowsOf(store, 'tags')).filter((tag) => tag.name !== 'Unused');
    expect(await rowsOf(empty, 'tags')).toEqual(used);
    for (const table of ['billTags', 'positions', 'decisions'] as const) {
      expect(await rowsOf(empty, table)).toEqual(await rowsOf(store, table));
    }
    expect(withoutDatasets(await rowsOf(empty, 'bills'))).toEqual(
      withoutDatasets(await rowsOf(store, 'bills')),
    );
    expect((await rowsOf(empty, 'bills')).every((bill) => bill.datasetIds.length === 0)).toBe(true);
  });

  it('gives back the annotations from Web Annotation JSON-LD', async () => {
    const { store } = await sourceDevice();
    const file = await exported(store, 'annotations');
    const document = JSON.parse(file.text) as {
      '@context': string;
      type: string;
      first: { items: { target: { selector: { type: string }[] }; body?: { value: string } }[] };
    };
    expect(document['@context']).toBe('http://www.w3.org/ns/anno.jsonld');
    expect(document.type).toBe('AnnotationCollection');
    expect(document.first.items[0]?.target.selector.map((selector) => selector.type)).toEqual([
      'TextQuoteSelector',
      'TextPositionSelector',
    ]);

    const empty = createMemoryLocalStore();
    const done = await importInto(empty, file.name, file.text);
    expect(done.kind).toBe('annotations');
    expect(done.counts.annotations.added).toBe(2);
    // Web Annotations carry no bill's number and title: on a device without the bill, the rows
    // come back without their `billLabel`.
    const withoutLabels = (await rowsOf(store, 'annotations')).map(({ billLabel, ...row }) => {
      expect(billLabel).toBeDefined();
      return row;
    });
    expect(await rowsOf(empty, 'annotations')).toEqual(withoutLabels);
  });

  it('counts positions on a fetched text version in code points, and back', async () => {
    const store = createMemoryLocalStore();
    const url = 'https://lis.example.gov/hb1.htm';
    const version = { date: null, type: 'Introduced', url, mimeType: null, text: null };
    await store.write(['bills'], (tx) => tx.put('bills', storedBill(1, { texts: [version] })));
    // Three characters outside the Basic Multilingual Plane before the passage: two UTF-16 units
    // each, one code point.
    const text = 'SEC. 1. 𝐒𝐄𝐂 The tenant shall pay.';
    const fetched = {
      billId: billIdOf(1),
      index: 0,
      url,
      format: 'html' as const,
      text: { text, headings: [] },
      fetchedAt: NOW,
    };
    await saveVersionText(store, fetched);
    const start = text.indexOf('tenant');
    await createAnnotation(testContext(store), {
      billId: billIdOf(1),
      target: 'text:0',
      start,
      end: start + 'tenant'.length,
      color: '#FFD54F',
    });
    const file = await exported(store, 'annotations');
    const document = JSON.parse(file.text) as {
      first: { items: { target: { selector: { type: string; start?: number }[] } }[] };
    };
    const position = document.first.items[0]?.target.selector.find(
      (selector) => selector.type === 'TextPositionSelector',
    );
    expect(position?.start).toBe(start - 3);

    const other = createMemoryLocalStore();
    await other.write(['bills'], (tx) => tx.put('bills', storedBill(1, { texts: [version] })));
    await saveVersionText(other, fetched);
    await importInto(other, file.name, file.text);
    expect((await rowsOf(other, 'annotations'))[0]?.position.start).toBe(start);
  });

  it('writes the user rows through the outbox, so the import syncs', async () => {
    const { store } = await sourceDevice();
    const empty = createMemoryLocalStore();
    await importInto(empty, 'x.json', (await exported(store, 'json')).text);
    const outbox = await outboxOf(empty);
    expect(outbox.map((entry) => entry.table).sort()).toEqual(
      [
        ...Array<string>(4).fill('billTags'),
        ...Array<string>(3).fill('decisions'),
        ...Array<string>(2).fill('positions'),
        ...Array<string>(4).fill('tags'),
      ].sort(),
    );
    expect(outbox.some((entry) => entry.table === 'bills')).toBe(false);
  });

  it('changes nothing the second time', async () => {
    const { store } = await sourceDevice();
    const empty = createMemoryLocalStore();
    const text = (await exported(store, 'json')).text;
    await importInto(empty, 'x.json', text);
    const before = await everything(empty);
    const again = await importInto(empty, 'x.json', text);
    expect(describeCounts(again.counts, 'added')).toBe('nothing');
    expect(describeCounts(again.counts, 'changed')).toBe('nothing');
    expect(await everything(empty)).toEqual(before);
  });
});

describe('choosing what to export', () => {
  it('exports tracked bills only, or the bills of a tag with that tag', async () => {
    const { store } = await sourceDevice();
    const tracked = JSON.parse((await exported(store, 'json', { kind: 'tracked' })).text) as {
      bills: { id: string }[];
      selection: string;
    };
    expect(tracked.bills.map((bill) => bill.id)).toEqual([billIdOf(1), billIdOf(3)]);
    const tag = (await rowsOf(store, 'tags')).find((row) => row.name.startsWith('=HYPER'));
    const byTag = JSON.parse(
      (await exported(store, 'json', { kind: 'tag', tagId: tag?.id ?? '' })).text,
    ) as { bills: { id: string }[]; tags: { name: string }[] };
    expect(byTag.bills.map((bill) => bill.id)).toEqual([billIdOf(1), billIdOf(2)]);
    expect(byTag.tags.map((row) => row.name).sort()).toEqual(
      ['=HYPERLINK("x")', `${HTML} ${RTL}`].sort(),
    );
  });

  it('exports the Tracked list as its query has it: search words, filters and order', async () => {
    const { store } = await sourceDevice();
    const listed = async (search: string) =>
      (
        JSON.parse(
          (await exported(store, 'json', { kind: 'list', query: parseBillListQuery(search) })).text,
        ) as { bills: { id: string }[]; selection: string }
      ).bills.map((bill) => bill.id);
    expect(await listed('?sort=identifier')).toEqual([billIdOf(1), billIdOf(3)]);
    expect(await listed('?all=1&sort=identifier&position=oppose')).toEqual([billIdOf(2)]);
    expect(await listed('?all=1&q=second')).toEqual([billIdOf(2)]);
    expect(await listed('?q=second')).toEqual([]);
  });
});

describe('importing into a device that has data', () => {
  it('matches tags by name, keeps bills it has, and says what changes before it does', async () => {
    const { store } = await sourceDevice();
    const text = (await exported(store, 'csv')).text;
    const target = createMemoryLocalStore();
    await target.write(['bills'], (tx) => tx.put('bills', storedBill(1)));
    const context = testContext(target, 'device-b');
    const existing = await createTag(context, { name: '=hyperlink("X")', color: '#000000' });
    await setPosition(context, billIdOf(1), 'watch');

    const bundle = readUserDataFile({ name: 'x.csv', bytes: encodeUtf8(text) }, NOW);
    const before = await everything(target);
    const preview = await previewUserDataImport(context, bundle);
    expect(await everything(target)).toEqual(before);
    expect(preview.counts.bills).toEqual({ added: 2, changed: 0, unchanged: 1 });
    expect(preview.counts.tags).toEqual({ added: 2, changed: 0, unchanged: 1 });
    expect(preview.counts.positions).toEqual({ added: 1, changed: 1, unchanged: 0 });
    expect(preview.changes).toContainEqual({
      kind: 'positions',
      action: 'change',
      description: expect.stringMatching(
        /^H\.R\. 1: position Watch → Support; why “=cmd/,
      ) as string,
    });

    const done = await applyUserDataImport(context, bundle);
    expect(done.counts).toEqual(preview.counts);
    const tags = await rowsOf(target, 'tags');
    expect(tags.filter((tag) => tag.name.toLowerCase().startsWith('=hyperlink'))).toEqual([
      existing,
    ]);
    const assigned = (await rowsOf(target, 'billTags')).filter((row) => row.tagId === existing.id);
    expect(assigned.map((row) => row.billId)).toEqual([billIdOf(1), billIdOf(2)]);
    // The bill the device had is left as its dataset made it.
    expect((await target.read(['bills'], (tx) => tx.get('bills', billIdOf(1))))?.title).toBe(
      'A bill to do thing number 1.',
    );
  });
});

describe('refusing a file', () => {
  const refused = async (name: string, text: string | Uint8Array) => {
    const store = createMemoryLocalStore();
    const before = await everything(store);
    const bytes = typeof text === 'string' ? encodeUtf8(text) : text;
    let message = '';
    try {
      const bundle = readUserDataFile({ name, bytes }, NOW);
      await applyUserDataImport(testContext(store), bundle);
    } catch (error) {
      expect(error).toBeInstanceOf(UserDataImportError);
      message = (error as Error).message;
    }
    expect(await everything(store)).toEqual(before);
    return message;
  };

  it('says why, in words, and writes nothing', async () => {
    const { store } = await sourceDevice();
    const json = (await exported(store, 'json')).text;
    const csv = (await exported(store, 'csv')).text;
    expect(await refused('empty.json', '')).toBe('The file is empty.');
    expect(await refused('broken.json', json.slice(0, 200))).toMatch(/^The file is not valid JSON/);
    expect(await refused('other.json', '{"hello": 1}')).toBe(
      'This JSON is neither a Docket export nor Web Annotation JSON-LD.',
    );
    expect(await refused('future.json', json.replace('"version": 1', '"version": 7'))).toBe(
      'This Docket export has version 7; this version of Docket reads version 1.',
    );
    expect(
      await refused(
        'bad-bill.json',
        json.replace('"status": "introduced"', '"status": "exploded"'),
      ),
    ).toMatch(/^Bill 1 is not a valid bill: status/);
    const blank = JSON.parse(json) as { tags: { name: string }[] };
    for (const tag of blank.tags) tag.name = '   ';
    expect(await refused('blank.json', JSON.stringify(blank))).toBe('Tag 1 has no name.');
    const orphan = JSON.parse(json) as { tags: unknown[] };
    orphan.tags = [];
    expect(await refused('orphan.json', JSON.stringify(orphan))).toMatch(
      /^Tag assignment 1 names the tag/,
    );
    // Cut off mid-row: the last row's id no longer matches, or its quote never closes.
    expect(await refused('cut.csv', csv.slice(0, csv.length - 30))).toMatch(/line|id column/);
    expect(await refused('junk.csv', 'just,some\nwords,here\n')).toBe(
      'This CSV is not a Docket CSV: its header needs identifier and title columns.',
    );
    expect(await refused('bad-position.csv', csv.replace(',support,', ',adore,'))).toMatch(
      /the position "adore" is not one of support, oppose, watch, none/,
    );
    expect(await refused('binary.bin', new Uint8Array([0, 1, 2, 3, 0, 255]))).toBe(
      'This is not a text file Docket exports.',
    );
    const prototype =
      '{"format":"docket-export","version":1,"__proto__":{"polluted":true},"bills":[],"tags":[],"billTags":[],"positions":[],"decisions":[]}';
    expect(await refused('proto.json', prototype)).toBe('');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('a position’s reason', () => {
  /** A device with bill 1, watched for a reason of its own. */
  async function deviceWithReason() {
    const store = createMemoryLocalStore();
    await store.write(['bills'], (tx) => tx.put('bills', storedBill(1)));
    const context = testContext(store, 'device-b');
    await setPosition(context, billIdOf(1), 'watch');
    await setPositionReason(context, billIdOf(1), 'Mine');
    return { store, context };
  }

  it('reads files from before reasons, and leaves the device’s reason as it was', async () => {
    // Docket JSON as it was written before reasons: positions without one.
    const json = JSON.stringify({
      format: 'docket-export',
      version: 1,
      bills: [],
      tags: [],
      billTags: [],
      positions: [{ billId: billIdOf(1), position: 'support', updatedAt: NOW }],
      decisions: [],
    });
    // Docket CSV as it was written before reasons: no position_reason column.
    const csv = `position,position_updated_at,decision,decided_at,${exportDocketCsv(
      [storedBill(1)],
      {
        byteOrderMark: false,
      },
    ).replace('\r\n', `\r\noppose,${NOW},,,`)}`;
    for (const [name, text, position] of [
      ['old.json', json, 'support'],
      ['old.csv', csv, 'oppose'],
    ] as const) {
      const { store, context } = await deviceWithReason();
      const bundle = readUserDataFile({ name, bytes: encodeUtf8(text) }, NOW);
      expect(bundle.positions).toEqual([
        { billId: billIdOf(1), position, updatedAt: expect.any(String) as string },
      ]);
      const done = await applyUserDataImport(context, bundle);
      expect(done.changes).toContainEqual({
        kind: 'positions',
        action: 'change',
        description: `H.R. 1: position Watch → ${position === 'support' ? 'Support' : 'Oppose'}`,
      });
      expect(await rowsOf(store, 'positions')).toMatchObject([{ position, reason: 'Mine' }]);
    }
  });

  it('says a changed or removed reason before importing it', async () => {
    const { store } = await sourceDevice();
    const file = JSON.parse((await exported(store, 'json')).text) as {
      positions: { billId: string; position: string; reason?: string }[];
    };
    const { store: target, context } = await deviceWithReason();
    const preview = async () =>
      (
        await previewUserDataImport(
          context,
          readUserDataFile({ name: 'x.json', bytes: encodeUtf8(JSON.stringify(file)) }, NOW),
        )
      ).changes.filter((change) => change.kind === 'positions');
    expect((await preview())[0]?.description).toBe(
      `H.R. 1: position Watch → Support; why “${REASON.replace(/\s+/g, ' ').slice(0, 60)}…”`,
    );
    for (const row of file.positions) row.reason = '';
    file.positions = file.positions.map((row) => ({ ...row, position: 'watch' }));
    expect((await preview())[0]?.description).toBe('H.R. 1: reason removed');
    expect(await rowsOf(target, 'positions')).toMatchObject([{ reason: 'Mine' }]);
  });

  it('refuses a reason longer than a position keeps, saying so', async () => {
    const { store, context } = await sourceDevice();
    await setPositionReason(context, billIdOf(2), 'PLACEHOLDER');
    const long = 'x'.repeat(2_001);
    const json = (await exported(store, 'json')).text.replace('PLACEHOLDER', long);
    const csv = (await exported(store, 'csv')).text.replace('PLACEHOLDER', long);
    expect(() => readUserDataFile({ name: 'x.json', bytes: encodeUtf8(json) }, NOW)).toThrow(
      'This Docket export does not fit: positions.1.reason: a reason is at most 2,000 characters.',
    );
    expect(() => readUserDataFile({ name: 'x.csv', bytes: encodeUtf8(csv) }, NOW)).toThrow(
      /^Row at line \d+ \(H\.R\. 2\): the reason has 2,001 characters; a reason is at most 2,000\.$/,
    );
  });
});

describe('what an import says it adds', () => {
  it('says every addition, table by table in the order of the kinds', async () => {
    const { store } = await sourceDevice();
    const bundle = readUserDataFile(
      { name: 'x.json', bytes: encodeUtf8((await exported(store, 'json')).text) },
      NOW,
    );
    const preview = await previewUserDataImport(testContext(createMemoryLocalStore()), bundle);
    const tag = (name: string) => `tagged "${name}"`;
    expect(
      preview.changes.map((change) => [change.kind, change.action, change.description]),
    ).toEqual(
      [
        ['bills', `H.R. 1: ${FORMULA}, "quoted", ${HTML} ${RTL}`],
        ['bills', 'H.R. 2: @SUM(1+1) the second bill'],
        ['bills', 'H.R. 3: A bill to do thing number 3.'],
        ['tags', 'Tag "=HYPERLINK("x")"'],
        ['tags', `Tag "${HTML} ${RTL}"`],
        ['tags', 'Tag "a; b | c \\ d"'],
        ['tags', 'Tag "Unused"'],
        ['billTags', `H.R. 1: ${tag('=HYPERLINK("x")')}`],
        ['billTags', `H.R. 1: ${tag(`${HTML} ${RTL}`)}`],
        ['billTags', `H.R. 2: ${tag('=HYPERLINK("x")')}`],
        ['billTags', `H.R. 3: ${tag('a; b | c \\ d')}`],
        [
          'positions',
          `H.R. 1: position Support; why “${REASON.replace(/\s+/g, ' ').slice(0, 60)}…”`,
        ],
        ['positions', 'H.R. 2: position Oppose'],
        ['decisions', 'H.R. 1: Track'],
        ['decisions', 'H.R. 2: Dismiss'],
        ['decisions', 'H.R. 3: Track'],
      ].map(([kind, description]) => [kind, 'add', description]),
    );
    const added = (count: number) => ({ added: count, changed: 0, unchanged: 0 });
    expect(preview.counts).toEqual({
      bills: added(3),
      tags: added(4),
      billTags: added(4),
      positions: added(2),
      decisions: added(3),
      annotations: added(0),
    });
  });
});

describe('what an import says it changes', () => {
  it('says a changed decision and a changed note, and counts what is as it was', async () => {
    const { store } = await sourceDevice();
    const target = createMemoryLocalStore();
    const json = (await exported(store, 'json')).text;
    const notes = await exported(store, 'annotations');
    // The notes first: on a device without their bill they are kept without its `billLabel`,
    // as the file has them, so the file's rows compare equal to them.
    await importInto(target, notes.name, notes.text);
    await importInto(target, 'x.json', json);
    const context = testContext(target, 'device-b');
    await laterBill(context, billIdOf(1));
    const [note] = await rowsOf(target, 'annotations');
    await updateAnnotation(context, note?.id ?? '', { note: 'Changed here' });

    const decisions = await previewUserDataImport(
      context,
      readUserDataFile({ name: 'x.json', bytes: encodeUtf8(json) }, NOW),
    );
    expect(decisions.changes).toEqual([
      { kind: 'decisions', action: 'change', description: 'H.R. 1: Later → Track' },
    ]);
    const unchanged = (count: number) => ({ added: 0, changed: 0, unchanged: count });
    expect(decisions.counts).toEqual({
      bills: unchanged(3),
      tags: unchanged(4),
      billTags: unchanged(4),
      positions: unchanged(2),
      decisions: { added: 0, changed: 1, unchanged: 2 },
      annotations: unchanged(0),
    });
    const annotations = await previewUserDataImport(
      context,
      readUserDataFile({ name: notes.name, bytes: encodeUtf8(notes.text) }, NOW),
    );
    // Only the note changed here; the other is as the file has it.
    expect(annotations.changes).toEqual([
      {
        kind: 'annotations',
        action: 'change',
        description: `H.R. 1: note on "${note?.quote.exact.replace(/\s+/g, ' ') ?? ''}"`,
      },
    ]);
    expect(annotations.counts.annotations).toEqual({ added: 0, changed: 1, unchanged: 1 });
  });
});
