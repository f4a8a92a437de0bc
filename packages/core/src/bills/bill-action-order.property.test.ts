import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inSourceOrder } from './bill-merge.ts';
import { importBillStatus } from '../importers/bill-importer-billstatus.ts';
import { importCongressJson } from '../importers/bill-importer-congress-json.ts';
import { importOpenStates } from '../importers/bill-importer-openstates.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import { importLegiScan } from '../importers/bill-importer-legiscan.ts';

// Sources list a bill's actions newest first (GovInfo) or oldest first (the others), and many
// bills do everything on one day. Whatever order the list arrives in, when each action carries
// its own place in time (a date and a time, or Open States' order numbers) the bill must come
// out with the same actions in the same order; and a one-day list without times is read in the
// direction its source documents.

interface GeneratedAction {
  text: string;
  date: string;
  /** 'HH:MM:SS', distinct across the bill. */
  time: string;
  /** Seconds into the day, for Open States' order numbers. */
  order: number;
}

const DAYS = ['2024-03-05', '2024-03-06', '2024-04-10'];

function clock(seconds: number): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
}

/** Actions on up to three days (often all on one), each at its own second, oldest first. */
const actionsArbitrary = fc
  .uniqueArray(fc.integer({ min: 0, max: DAYS.length * 86_400 - 1 }), {
    minLength: 1,
    maxLength: 12,
  })
  .map((instants) =>
    [...instants]
      .sort((a, b) => a - b)
      .map((instant, index): GeneratedAction => ({
        text: `Action number ${index + 1}.`,
        date: DAYS[Math.floor(instant / 86_400)] ?? '2024-03-05',
        time: clock(instant % 86_400),
        order: instant,
      })),
  );

type Arrangement = 'oldest-first' | 'newest-first' | 'shuffled-within-days' | 'shuffled';

/** The oldest-first list as a source might list it; `keys` drive the shuffles. */
function arrange(
  actions: readonly GeneratedAction[],
  arrangement: Arrangement,
  keys: readonly number[],
): GeneratedAction[] {
  const keyed = actions.map((action, index) => ({ action, key: keys[index] ?? 0 }));
  switch (arrangement) {
    case 'oldest-first':
      return [...actions];
    case 'newest-first':
      return [...actions].reverse();
    case 'shuffled':
      return keyed.sort((a, b) => a.key - b.key).map(({ action }) => action);
    case 'shuffled-within-days':
      // Days newest first, as GovInfo lists them; each day's actions in any order.
      return keyed
        .sort((a, b) =>
          a.action.date === b.action.date ? a.key - b.key : a.action.date < b.action.date ? 1 : -1,
        )
        .map(({ action }) => action);
  }
}

const arrangementArbitrary = fc.constantFrom<Arrangement>(
  'oldest-first',
  'newest-first',
  'shuffled-within-days',
  'shuffled',
);
const keysArbitrary = fc.array(fc.double({ noNaN: true }), { minLength: 12, maxLength: 12 });

/** Untimed actions on up to three days, oldest first, as sources without times list them. */
const untimedActionsArbitrary = fc
  .array(fc.integer({ min: 0, max: DAYS.length - 1 }), { minLength: 1, maxLength: 12 })
  .map((days) =>
    [...days]
      .sort((a, b) => a - b)
      .map((day, index) => ({
        text: `Action number ${index + 1}.`,
        date: DAYS[day] ?? '2024-03-05',
      })),
  );

/** The days of an oldest-first list in the order `keys` give, each day's actions as `within`
 *  says (the direction its source documents), so only the source's own information orders them. */
function daysInAnyOrder<T extends { date: string }>(
  actions: readonly T[],
  within: 'oldest-first' | 'newest-first',
  keys: readonly number[],
): T[] {
  const days = [...new Set(actions.map((action) => action.date))];
  const keyOf = new Map(days.map((day, index) => [day, keys[index] ?? 0]));
  const ordered = [...days].sort((a, b) => (keyOf.get(a) ?? 0) - (keyOf.get(b) ?? 0));
  return ordered.flatMap((day) => {
    const ofDay = actions.filter((action) => action.date === day);
    return within === 'newest-first' ? ofDay.reverse() : ofDay;
  });
}

function billStatusXml(
  listed: readonly { text: string; date: string; time: string | null }[],
  latest: { text: string; date: string } | null,
): Uint8Array {
  const items = listed
    .map(
      (action) => `
      <item>
        <actionDate>${action.date}</actionDate>${
          action.time === null
            ? ''
            : `
        <actionTime>${action.time}</actionTime>`
        }
        <text>${action.text}</text>
        <sourceSystem><code>2</code><name>House floor actions</name></sourceSystem>
      </item>`,
    )
    .join('');
  const latestAction =
    latest === null
      ? ''
      : `<latestAction><actionDate>${latest.date}</actionDate><text>${latest.text}</text></latestAction>`;
  return encodeUtf8(`<?xml version="1.0" encoding="utf-8"?>
<billStatus><version>3.0.0</version><bill>
  <number>9901</number><type>HR</type><congress>118</congress>
  <title>A bill whose actions are listed in some order.</title>
  <introducedDate>2024-03-05</introducedDate>
  <actions>${items}
  </actions>
  ${latestAction}
</bill></billStatus>`);
}

function importedTexts(result: { bills: { actions: { text: string }[] }[] }): string[] {
  expect(result.bills).toHaveLength(1);
  return result.bills[0]?.actions.map((action) => action.text) ?? [];
}

describe("action order from each source's own order information", () => {
  it('inSourceOrder: actions with a date and time each come out the same however listed', () => {
    fc.assert(
      fc.property(actionsArbitrary, arrangementArbitrary, keysArbitrary, (actions, how, keys) => {
        const entries = arrange(actions, how, keys).map((action) => ({
          item: action.text,
          date: action.date,
          time: action.time,
        }));
        const expected = actions.map((action) => action.text);
        expect(inSourceOrder(entries, { listing: 'newest-first' })).toEqual(expected);
        expect(inSourceOrder(entries, { listing: 'oldest-first' })).toEqual(expected);
      }),
    );
  });

  it('BILLSTATUS: actionDate and actionTime order the actions, whatever the listing', () => {
    fc.assert(
      fc.property(actionsArbitrary, arrangementArbitrary, keysArbitrary, (actions, how, keys) => {
        const bytes = billStatusXml(arrange(actions, how, keys), null);
        const result = importBillStatus([{ name: 'BILLSTATUS-118hr9901.xml', bytes }]);
        expect(importedTexts(result)).toEqual(actions.map((action) => action.text));
      }),
    );
  });

  it('BILLSTATUS: untimed actions of one day are read newest first, as GovInfo documents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), (count) => {
        const oldestFirst = Array.from({ length: count }, (_, index) => ({
          text: `Action number ${index + 1}.`,
          date: '2024-03-05',
          time: null,
        }));
        const latest = oldestFirst.at(-1) ?? null;
        const bytes = billStatusXml([...oldestFirst].reverse(), latest);
        const result = importBillStatus([{ name: 'BILLSTATUS-118hr9901.xml', bytes }]);
        expect(importedTexts(result)).toEqual(oldestFirst.map((action) => action.text));
        expect(result.bills[0]?.rawStatus).toBe(latest?.text);
      }),
    );
  });

  it('Open States: the order numbers decide, whatever the listing and however many share a day', () => {
    fc.assert(
      fc.property(actionsArbitrary, arrangementArbitrary, keysArbitrary, (actions, how, keys) => {
        const bill = {
          id: 'ocd-bill/00000000-0000-0000-0000-000000009901',
          identifier: 'HB 9901',
          title: 'A bill whose actions are listed in some order.',
          legislative_session: '2024',
          jurisdiction: { id: 'ocd-jurisdiction/country:us/state:wy/government' },
          actions: arrange(actions, how, keys).map((action) => ({
            // Dates without times: only the order numbers tell a day's actions apart.
            date: action.date,
            description: action.text,
            classification: [],
            order: action.order,
          })),
        };
        const result = importOpenStates([
          { name: 'metadata.json', bytes: encodeUtf8(JSON.stringify(bill)) },
        ]);
        expect(importedTexts(result)).toEqual(actions.map((action) => action.text));
        expect(result.bills[0]?.rawStatus).toBe(actions.at(-1)?.text);
      }),
    );
  });

  it('Open States: timestamps order the actions when there are no order numbers', () => {
    fc.assert(
      fc.property(actionsArbitrary, arrangementArbitrary, keysArbitrary, (actions, how, keys) => {
        const bill = {
          identifier: 'HCONRES 9901',
          title: 'A resolution whose actions are listed in some order.',
          legislative_session: '119',
          jurisdiction: { id: 'ocd-jurisdiction/country:us/government' },
          actions: arrange(actions, how, keys).map((action) => ({
            // In Eastern time: the US scraper's midnight Eastern in UTC means "no time".
            date: `${action.date}T${action.time}-04:00`,
            description: action.text,
            classification: [],
          })),
        };
        const result = importOpenStates([
          { name: 'metadata.json', bytes: encodeUtf8(JSON.stringify(bill)) },
        ]);
        expect(importedTexts(result)).toEqual(actions.map((action) => action.text));
      }),
    );
  });

  it('data.json: acted_at with its time orders the actions, whatever the listing', () => {
    fc.assert(
      fc.property(actionsArbitrary, arrangementArbitrary, keysArbitrary, (actions, how, keys) => {
        const bill = {
          bill_id: 'hr9901-118',
          bill_type: 'hr',
          number: '9901',
          congress: '118',
          official_title: 'A bill whose actions are listed in some order.',
          actions: arrange(actions, how, keys).map((action) => ({
            acted_at: `${action.date}T${action.time}-04:00`,
            text: action.text,
            type: 'action',
          })),
        };
        const result = importCongressJson([
          { name: 'data.json', bytes: encodeUtf8(JSON.stringify(bill)) },
        ]);
        expect(importedTexts(result)).toEqual(actions.map((action) => action.text));
      }),
    );
  });

  it('BILLSTATUS: untimed days listed in any order, each newest first, give the same actions and latest action', () => {
    fc.assert(
      fc.property(untimedActionsArbitrary, keysArbitrary, (actions, keys) => {
        const listed = daysInAnyOrder(actions, 'newest-first', keys).map((action) => ({
          ...action,
          time: null,
        }));
        const latest = actions.at(-1) ?? null;
        const bytes = billStatusXml(listed, latest);
        const result = importBillStatus([{ name: 'BILLSTATUS-118hr9901.xml', bytes }]);
        expect(importedTexts(result)).toEqual(actions.map((action) => action.text));
        expect(result.bills[0]?.rawStatus).toBe(latest?.text);
      }),
    );
  });

  it('LegiScan: history days listed in any order, each oldest first, give the same actions', () => {
    fc.assert(
      fc.property(untimedActionsArbitrary, keysArbitrary, (actions, keys) => {
        const answer = {
          status: 'OK',
          bill: {
            bill_id: 9901,
            bill_number: 'HB9901',
            state: 'WY',
            session: { session_name: '2024 Budget Session' },
            title: 'A bill whose history is listed in some order.',
            status: 1,
            history: daysInAnyOrder(actions, 'oldest-first', keys).map((action) => ({
              date: action.date,
              action: action.text,
              chamber: 'H',
            })),
          },
        };
        const result = importLegiScan([
          { name: 'bill/HB9901.json', bytes: encodeUtf8(JSON.stringify(answer)) },
        ]);
        // (LegiScan's raw status is its status number's name, not the last action.)
        expect(importedTexts(result)).toEqual(actions.map((action) => action.text));
      }),
    );
  });

  it('data.json: untimed days listed in any order, each oldest first, give the same actions', () => {
    fc.assert(
      fc.property(untimedActionsArbitrary, keysArbitrary, (actions, keys) => {
        const bill = {
          bill_id: 'hr9901-118',
          bill_type: 'hr',
          number: '9901',
          congress: '118',
          official_title: 'A bill whose actions are listed in some order.',
          actions: daysInAnyOrder(actions, 'oldest-first', keys).map((action) => ({
            acted_at: action.date,
            text: action.text,
            type: 'action',
          })),
        };
        const result = importCongressJson([
          { name: 'data.json', bytes: encodeUtf8(JSON.stringify(bill)) },
        ]);
        expect(importedTexts(result)).toEqual(actions.map((action) => action.text));
      }),
    );
  });

  it('Open States: untimed days without order numbers, listed in any order, each oldest first', () => {
    fc.assert(
      fc.property(untimedActionsArbitrary, keysArbitrary, (actions, keys) => {
        const bill = {
          id: 'ocd-bill/00000000-0000-0000-0000-000000009901',
          identifier: 'HB 9901',
          title: 'A bill whose actions are listed in some order.',
          legislative_session: '2024',
          jurisdiction: { id: 'ocd-jurisdiction/country:us/state:wy/government' },
          actions: daysInAnyOrder(actions, 'oldest-first', keys).map((action) => ({
            date: action.date,
            description: action.text,
            classification: [],
          })),
        };
        const result = importOpenStates([
          { name: 'metadata.json', bytes: encodeUtf8(JSON.stringify(bill)) },
        ]);
        expect(importedTexts(result)).toEqual(actions.map((action) => action.text));
        expect(result.bills[0]?.rawStatus).toBe(actions.at(-1)?.text);
      }),
    );
  });
});
