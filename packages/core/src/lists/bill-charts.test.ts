import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billStatuses, type BillStatus } from '../bills/bill-vocabulary.ts';
import type { BillAction } from '../bills/bill.ts';
import {
  addDays,
  billActedInWeek,
  chartDataFromTally,
  createBillChartTally,
  isoWeekStart,
  maxWeekBars,
  tallyBill,
  trackedBillChartData,
  type ChartedBill,
} from './bill-charts.ts';

function action(date: string | null): BillAction {
  return { date, text: 'Read twice.', chamber: null };
}

function bill(status: BillStatus, ...dates: (string | null)[]): ChartedBill {
  return { status, actions: dates.map(action) };
}

const dayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

// Dates from 1990 to 2040, the span real sessions (and a few typos) fall in.
const dateArb = fc
  .integer({ min: Date.UTC(1990, 0, 1) / 86_400_000, max: Date.UTC(2040, 11, 31) / 86_400_000 })
  .map((day) => new Date(day * 86_400_000).toISOString().slice(0, 10));
const billArb: fc.Arbitrary<ChartedBill> = fc.record({
  status: fc.constantFrom(...billStatuses),
  actions: fc.array(fc.option(dateArb, { nil: null }).map(action), { maxLength: 8 }),
});

describe('isoWeekStart', () => {
  it('is the Monday of the week, Monday to Sunday', () => {
    expect(isoWeekStart('2019-01-07')).toBe('2019-01-07'); // a Monday
    expect(isoWeekStart('2019-01-09')).toBe('2019-01-07');
    expect(isoWeekStart('2019-01-13')).toBe('2019-01-07'); // the Sunday after
    expect(isoWeekStart('2019-01-06')).toBe('2018-12-31'); // a Sunday, across the year
    expect(isoWeekStart('2024-03-01')).toBe('2024-02-26'); // across a leap day
  });

  it('refuses what is not a calendar date', () => {
    expect(isoWeekStart('2019-02-30')).toBeNull();
    expect(isoWeekStart('0000-00-00')).toBeNull();
    expect(isoWeekStart('01/09/2019')).toBeNull();
  });

  it('is always a Monday at most six days before the date', () => {
    fc.assert(
      fc.property(dateArb, (date) => {
        const monday = isoWeekStart(date);
        expect(monday).not.toBeNull();
        if (monday === null) return;
        expect(dayOf(monday)).toBe(1);
        expect(monday <= date).toBe(true);
        expect(addDays(monday, 6) >= date).toBe(true);
        expect(isoWeekStart(monday)).toBe(monday);
      }),
    );
  });
});

describe('tracked bills by status', () => {
  it('counts every status of the vocabulary, in its order, zeros included', () => {
    const data = trackedBillChartData([
      bill('enacted'),
      bill('introduced'),
      bill('enacted'),
      bill('failed'),
    ]);
    expect(data.total).toBe(4);
    expect(data.byStatus).toEqual([
      { status: 'introduced', count: 1 },
      { status: 'in-committee', count: 0 },
      { status: 'passed-one-chamber', count: 0 },
      { status: 'passed-both', count: 0 },
      { status: 'enacted', count: 2 },
      { status: 'vetoed', count: 0 },
      { status: 'failed', count: 1 },
      { status: 'other', count: 0 },
    ]);
  });

  it('adds up to the number of bills, whatever the bills', () => {
    fc.assert(
      fc.property(fc.array(billArb, { maxLength: 60 }), (bills) => {
        const data = trackedBillChartData(bills);
        expect(data.byStatus.map((bar) => bar.status)).toEqual([...billStatuses]);
        expect(data.byStatus.reduce((sum, bar) => sum + bar.count, 0)).toBe(bills.length);
        expect(data.total).toBe(bills.length);
      }),
    );
  });
});

describe('tracked bills with an action, per week', () => {
  it('is empty when no bill has a dated action', () => {
    expect(trackedBillChartData([]).byWeek).toEqual([]);
    expect(trackedBillChartData([bill('introduced', null), bill('other')]).byWeek).toEqual([]);
  });

  it('counts a bill once per week however many actions it has that week', () => {
    const data = trackedBillChartData([
      bill('introduced', '2019-01-07', '2019-01-08', '2019-01-13'),
      bill('enacted', '2019-01-09', '2019-01-21'),
    ]);
    expect(data.byWeek).toEqual([
      { weekStart: '2019-01-07', count: 2 },
      { weekStart: '2019-01-14', count: 0 },
      { weekStart: '2019-01-21', count: 1 },
    ]);
  });

  it(`keeps the latest ${maxWeekBars} weeks, ending with the latest week that has an action`, () => {
    const data = trackedBillChartData([
      bill('introduced', '2018-01-03', '2018-12-20'),
      bill('introduced', '2019-07-04'),
    ]);
    expect(data.byWeek).toHaveLength(maxWeekBars);
    expect(data.byWeek.at(-1)).toEqual({ weekStart: '2019-07-01', count: 1 });
    expect(data.byWeek[0]?.weekStart).toBe(addDays('2019-07-01', -7 * (maxWeekBars - 1)));
    // The early actions fall before the window and are left out.
    expect(data.byWeek.reduce((sum, bar) => sum + bar.count, 0)).toBe(1);
  });

  it('takes a smaller window when asked', () => {
    const data = trackedBillChartData([bill('introduced', '2019-01-07', '2019-03-04')], {
      maxWeeks: 2,
    });
    expect(data.byWeek).toEqual([
      { weekStart: '2019-02-25', count: 0 },
      { weekStart: '2019-03-04', count: 1 },
    ]);
  });

  it('gives consecutive Mondays whose counts match the rule the filtered list uses', () => {
    fc.assert(
      fc.property(
        fc.array(billArb, { maxLength: 30 }),
        fc.integer({ min: 1, max: 40 }),
        (bills, maxWeeks) => {
          const { byWeek } = trackedBillChartData(bills, { maxWeeks });
          expect(byWeek.length).toBeLessThanOrEqual(maxWeeks);
          byWeek.forEach((bar, index) => {
            expect(dayOf(bar.weekStart)).toBe(1);
            const previous = byWeek[index - 1];
            if (previous !== undefined) expect(bar.weekStart).toBe(addDays(previous.weekStart, 7));
            expect(bar.count).toBe(bills.filter((b) => billActedInWeek(b, bar.weekStart)).length);
          });
          const datedWeeks = bills
            .flatMap((b) => b.actions.map((a) => (a.date === null ? null : isoWeekStart(a.date))))
            .filter((week): week is string => week !== null)
            .sort();
          if (datedWeeks.length === 0) {
            expect(byWeek).toEqual([]);
          } else {
            // Ends with the latest active week; starts at the earliest one unless capped.
            expect(byWeek.at(-1)?.weekStart).toBe(datedWeeks.at(-1));
            expect(byWeek.at(-1)?.count).toBeGreaterThan(0);
            if (byWeek.length < maxWeeks) {
              expect(byWeek[0]?.weekStart).toBe(datedWeeks[0]);
              expect(byWeek[0]?.count).toBeGreaterThan(0);
            }
          }
        },
      ),
    );
  });

  it('gives the same numbers fed in batches as in one go', () => {
    fc.assert(
      fc.property(fc.array(billArb, { maxLength: 40 }), fc.nat({ max: 40 }), (bills, cut) => {
        const tally = createBillChartTally();
        for (const part of [bills.slice(0, cut), bills.slice(cut)]) {
          for (const b of part) tallyBill(tally, b);
        }
        expect(chartDataFromTally(tally)).toEqual(trackedBillChartData(bills));
      }),
    );
  });
});
