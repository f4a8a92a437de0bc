import { statusWord } from './bill-naming.ts';
import type { BillStatus } from './bill-vocabulary.ts';

// The dates of a bill a person reads, and the words they are shown with. A bill has two dates
// that look alike and are not: the day it reached its status (the source's status date) and the
// day of its newest action, which is often later (sent to committee on Jul 24, a hearing there on Jul 29).
// Shown side by side without a word they read as one date that disagrees with itself, so every
// screen, the printed report and the report CSV take them from here, each with its label:
// "In committee since Jul 24, 2025" is the status date, "Latest action Jul 29, 2025" the newest
// action's. The same label means the same field everywhere.

/** The words each date is shown with. */
export const billDateLabels = {
  introduced: 'Introduced',
  /** Put between the status and its date: "In committee since Jul 24, 2025". */
  statusSince: 'since',
  latestAction: 'Latest action',
} as const;

/** An action as this module reads it: the date (null when the source gives none). */
export interface DatedAction {
  readonly date: string | null;
}

/**
 * The bill's newest action: the latest dated one (of several on its day, the one listed last),
 * or the last one listed when none is dated; null when there is none. Actions are stored oldest
 * first with undated ones last, so this is the last dated action.
 */
export function latestAction<A extends DatedAction>(actions: readonly A[]): A | null {
  let latest: A | null = null;
  let latestDate = '';
  for (const action of actions) {
    if (action.date === null || action.date < latestDate) continue;
    latest = action;
    latestDate = action.date;
  }
  return latest ?? actions.at(-1) ?? null;
}

export interface DatedBill {
  readonly status: BillStatus;
  readonly statusDate: string | null;
  readonly introducedDate: string | null;
  readonly actions: readonly { readonly date: string | null; readonly text: string }[];
}

/** A bill's dates, each for its own label (billDateLabels). */
export interface BillDates {
  readonly introduced: string | null;
  /** The day the bill reached its status, as the source gives it. */
  readonly statusSince: string | null;
  /** The newest action (latestAction): its date, null when undated, and its text. */
  readonly latestAction: { readonly date: string | null; readonly text: string } | null;
}

export function billDates(bill: DatedBill): BillDates {
  const latest = latestAction(bill.actions);
  return {
    introduced: bill.introducedDate,
    statusSince: bill.statusDate,
    latestAction: latest === null ? null : { date: latest.date, text: latest.text },
  };
}

/**
 * The day of a bill's most recent activity, which orders the deck's "Most recent activity first":
 * its newest action's date, else the day it reached its status, else its introduction; '' when
 * the source dates none of them (such bills come last).
 */
export function billActivityDate(bill: Omit<DatedBill, 'status'>): string {
  return latestAction(bill.actions)?.date ?? bill.statusDate ?? bill.introducedDate ?? '';
}

/** A calendar date (YYYY-MM-DD) in the reader's words; the app's and the reports' own. */
export type FormatBillDate = (date: string) => string;

/** The status with its date: "In committee since Jul 24, 2025"; "In committee" when the source has none. */
export function statusWithDate(
  bill: { readonly status: BillStatus; readonly statusDate: string | null },
  formatDate: FormatBillDate,
): string {
  const word = statusWord(bill.status);
  return bill.statusDate === null
    ? word
    : `${word} ${billDateLabels.statusSince} ${formatDate(bill.statusDate)}`;
}

/** The newest action's date with its label: "Latest action Jul 29, 2025". */
export function latestActionDateText(date: string, formatDate: FormatBillDate): string {
  return `${billDateLabels.latestAction} ${formatDate(date)}`;
}

/**
 * The newest action as shown under its label ("Latest action"): "Jul 29, 2025: Hearing held";
 * the text alone when the source gives the action no date.
 */
export function latestActionLine(
  action: { readonly date: string | null; readonly text: string },
  formatDate: FormatBillDate,
): string {
  return action.date === null ? action.text : `${formatDate(action.date)}: ${action.text}`;
}
