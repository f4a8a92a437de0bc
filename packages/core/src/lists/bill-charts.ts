import { billStatuses, type BillStatus } from '../bills/bill-vocabulary.ts';
import { isIsoDate } from '../bills/bill-text-cleaning.ts';
import type { Bill } from '../bills/bill.ts';

// The numbers behind the Tracked tab's charts: tracked bills by status, and how many of them saw
// an action in each week. Kept here, away from the screen, so the rules (which week a date falls
// in, which weeks are shown) are tested without a browser and shared with the list that a bar
// leads to: a bar that says "5 bills" must open a list of those same 5 bills.

/**
 * At most this many weekly bars: over five months. With each bar a 24 px touch target, 24 bars
 * fit the page's 608 px reading column on a laptop; a phone scrolls them sideways.
 */
export const maxWeekBars = 24;

const DAY_MS = 86_400_000;

/** What the charts read of a bill; the rest (texts, votes) may be large and is not needed. */
export type ChartedBill = Pick<Bill, 'status' | 'actions'>;

export interface StatusBar {
  status: BillStatus;
  /** Tracked bills with this status. */
  count: number;
}

export interface WeekBar {
  /** The week's Monday, YYYY-MM-DD (UTC calendar). */
  weekStart: string;
  /** Tracked bills with at least one action dated in this week. */
  count: number;
}

export interface TrackedBillChartData {
  /** Every tracked bill counted. */
  total: number;
  /** Every status of the common vocabulary, in its order, zero counts included. */
  byStatus: StatusBar[];
  /**
   * Consecutive weeks ending with the latest week that has an action, starting with the earliest
   * such week but no more than `maxWeekBars` weeks back; weeks without actions count zero.
   * Empty when no tracked bill has a dated action.
   */
  byWeek: WeekBar[];
}

function utcDay(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

function isoDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** The Monday (ISO 8601 week start) of the week a YYYY-MM-DD date falls in; null for a non-date. */
export function isoWeekStart(date: string): string | null {
  if (!isIsoDate(date)) return null;
  const time = utcDay(date);
  // getUTCDay: Sunday 0 … Saturday 6; days back to Monday: Monday 0 … Sunday 6.
  const daysSinceMonday = (new Date(time).getUTCDay() + 6) % 7;
  return isoDay(time - daysSinceMonday * DAY_MS);
}

/** The date `days` days after a YYYY-MM-DD date (before, when negative). */
export function addDays(date: string, days: number): string {
  return isoDay(utcDay(date) + days * DAY_MS);
}

/** The distinct weeks (their Mondays) in which a bill has a dated action. */
export function billActionWeeks(bill: Pick<Bill, 'actions'>): Set<string> {
  const weeks = new Set<string>();
  for (const action of bill.actions) {
    if (action.date === null) continue;
    const week = isoWeekStart(action.date);
    if (week !== null) weeks.add(week);
  }
  return weeks;
}

/**
 * Whether a bill has an action dated in the week starting on `weekStart` (a Monday); the rule
 * behind a weekly bar, for the list the bar leads to (`/tabs/tracked?week=<weekStart>`).
 */
export function billActedInWeek(bill: Pick<Bill, 'actions'>, weekStart: string): boolean {
  return billActionWeeks(bill).has(weekStart);
}

/**
 * A running count, so the screen can feed tracked bills in batches and let each batch go
 * (a bill may carry megabytes of text) instead of holding every one at once.
 */
export interface BillChartTally {
  total: number;
  statusCounts: Map<BillStatus, number>;
  weekCounts: Map<string, number>;
}

export function createBillChartTally(): BillChartTally {
  return { total: 0, statusCounts: new Map(), weekCounts: new Map() };
}

export function tallyBill(tally: BillChartTally, bill: ChartedBill): void {
  tally.total += 1;
  tally.statusCounts.set(bill.status, (tally.statusCounts.get(bill.status) ?? 0) + 1);
  for (const week of billActionWeeks(bill)) {
    tally.weekCounts.set(week, (tally.weekCounts.get(week) ?? 0) + 1);
  }
}

export function chartDataFromTally(
  tally: BillChartTally,
  options: { maxWeeks?: number } = {},
): TrackedBillChartData {
  const maxWeeks = Math.max(1, Math.floor(options.maxWeeks ?? maxWeekBars));
  const byStatus = billStatuses.map((status) => ({
    status,
    count: tally.statusCounts.get(status) ?? 0,
  }));
  const weeks = [...tally.weekCounts.keys()].sort();
  const earliest = weeks[0];
  const latest = weeks[weeks.length - 1];
  const byWeek: WeekBar[] = [];
  if (earliest !== undefined && latest !== undefined) {
    const windowStart = addDays(latest, -7 * (maxWeeks - 1));
    for (
      let week = earliest > windowStart ? earliest : windowStart;
      week <= latest;
      week = addDays(week, 7)
    ) {
      byWeek.push({ weekStart: week, count: tally.weekCounts.get(week) ?? 0 });
    }
  }
  return { total: tally.total, byStatus, byWeek };
}

/** The chart numbers of a set of tracked bills, in one go. */
export function trackedBillChartData(
  bills: Iterable<ChartedBill>,
  options: { maxWeeks?: number } = {},
): TrackedBillChartData {
  const tally = createBillChartTally();
  for (const bill of bills) tallyBill(tally, bill);
  return chartDataFromTally(tally, options);
}
