import type { BillDraft } from '../bills/bill.ts';
import type { Chamber } from '../bills/bill-vocabulary.ts';
import { chambers } from '../bills/bill-vocabulary.ts';
import { inSourceOrder } from '../bills/bill-merge.ts';
import { timeOfTimestamp, toIsoDate } from '../bills/bill-text-cleaning.ts';
import type { StatusEvent } from '../bills/bill-status-mapping.ts';
import { openStatesActionEvents, statusFromEvents } from '../bills/bill-status-mapping.ts';
import type { JsonObject } from '../encoding/loose-json.ts';
import { arr, field, isObject, num, objects, str } from '../encoding/loose-json.ts';

// An Open States bill's actions (bill-importer-openstates.ts reads the bill): the chamber each was
// taken in (from whichever organization reference the shape of the data gives; its votes are read
// with the same references), the order they happened in, and the status and introduced date they
// say.

/** The classification an organization reference carries: an object, a scraper pseudo-id, a
 *  chamber word, or an ocd-organization id looked up in the export's organizations table. */
export function chamberOf(
  reference: unknown,
  organizations: ReadonlyMap<string, string>,
): Chamber | null {
  let classification: string | null = null;
  if (isObject(reference)) {
    classification = str(field(reference, 'classification'));
  } else if (typeof reference === 'string') {
    const text = reference.trim();
    if (text.startsWith('~{')) {
      try {
        classification = str(field(JSON.parse(text.slice(1)) as unknown, 'classification'));
      } catch {
        classification = null;
      }
    } else {
      classification = organizations.get(text) ?? text;
    }
  }
  if (classification === 'joint') return 'legislature';
  return (chambers as readonly string[]).includes(classification ?? '')
    ? (classification as Chamber)
    : null;
}

function actionChamber(
  action: JsonObject,
  organizations: ReadonlyMap<string, string>,
): Chamber | null {
  return (
    chamberOf(field(action, 'organization'), organizations) ??
    chamberOf(field(action, 'organization__classification'), organizations) ??
    chamberOf(field(action, 'organization_id'), organizations)
  );
}

/**
 * The time of an action's timestamp, or null when it only carries a date: the US Congress
 * scraper writes GovInfo's date-only actions as midnight Eastern in UTC (`T04:00:00+00:00` in
 * summer, `T05:00:00+00:00` in winter), which must not sort before the day's timed actions (H.
 * Con. Res. 89 of the 119th was "received in the Senate" after the House's timed vote that day).
 */
function actionTime(value: unknown, congress: boolean): string | null {
  if (congress && typeof value === 'string' && /T0[45]:00:00(\.0+)?(\+00:00|Z)$/.test(value.trim()))
    return null;
  return timeOfTimestamp(value);
}

/** An action of an Open States bill, with the classifications its status is read from. */
export interface OpenStatesAction {
  date: string | null;
  text: string;
  chamber: Chamber | null;
  classification: string[];
}

/**
 * The bill's actions in the order they happened. `congress` says the bill is Congress's, whose
 * scraper lists actions newest first and writes date-only ones as timestamps (actionTime).
 */
export function openStatesActions(
  bill: JsonObject,
  organizations: ReadonlyMap<string, string>,
  congress: boolean,
): OpenStatesAction[] {
  const rawActions = objects(field(bill, 'actions'));
  const ordered = rawActions.every((action) => num(field(action, 'order')) !== null)
    ? [...rawActions].sort((a, b) => (num(field(a, 'order')) ?? 0) - (num(field(b, 'order')) ?? 0))
    : rawActions;
  const latestText = str(field(bill, 'latest_action_description'));
  const latestDate = toIsoDate(field(bill, 'latest_action_date'));
  return inSourceOrder(
    ordered.map((action) => {
      const date = toIsoDate(field(action, 'date'));
      return {
        item: {
          date,
          text: str(field(action, 'description')) ?? '',
          chamber: actionChamber(action, organizations),
          classification: arr(field(action, 'classification'))
            .map(str)
            .filter((value): value is string => value !== null),
        },
        date,
        time: actionTime(field(action, 'date'), congress),
      };
    }),
    {
      // Open States keeps each scraper's order (its `order` numbers count the scraper's list).
      // Its US Congress scraper copies GovInfo's, newest first; state scrapers list oldest first.
      listing: congress ? 'newest-first' : 'oldest-first',
      isLatest: (action) =>
        latestText !== null &&
        action.date === latestDate &&
        action.text.replace(/\s+/g, ' ').trim() === latestText.replace(/\s+/g, ' ').trim(),
    },
  );
}

const CLOTURE_NOT_INVOKED = /^(Second |Third |Fourth )?Cloture\b.{0,200}\bnot invoked\b/i;

/** The status the actions (in the order they happened) lead to, from their classifications. */
export function statusOfActions(
  actions: readonly OpenStatesAction[],
): Pick<BillDraft, 'status' | 'statusDate'> {
  const events: StatusEvent[] = actions.flatMap((action) =>
    openStatesActionEvents(
      // A failed cloture vote disposes of nothing, however a scraper classifies it.
      CLOTURE_NOT_INVOKED.test(action.text)
        ? action.classification.filter((value) => value !== 'failure')
        : action.classification,
      action.date,
      action.chamber,
    ),
  );
  return statusFromEvents(events);
}

/**
 * The date the actions say the bill was introduced, or null when none says. Some legislatures
 * (Wyoming) file a bill weeks before it is introduced; the introduction is the introduced date, a
 * filing only where no introduction is recorded.
 */
export function introductionDate(actions: readonly OpenStatesAction[]): string | null {
  const classified = (kind: string) =>
    actions.find((action) => action.date !== null && action.classification.includes(kind))?.date ??
    null;
  return classified('introduction') ?? classified('filing');
}
