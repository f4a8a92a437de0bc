import { changeWords, type ChangeFeedEntry } from '@docket/core/changes';
import type { Job } from '@docket/core/store';

// What an alert says when a refresh found changes to followed bills: the bill and the change for
// one bill, the count and each bill's first change for several. Nothing leaves the device: the
// browser's Notification API shows it.

export interface ChangeAlert {
  title: string;
  body: string;
}

function billName(entry: ChangeFeedEntry): string {
  return entry.bill?.identifier ?? entry.billId;
}

/** The alert for the unseen changes a refresh found; null when there are none. */
export function changeAlertOf(found: readonly ChangeFeedEntry[]): ChangeAlert | null {
  const [first] = found;
  if (first === undefined) return null;
  const firstWords = (entry: ChangeFeedEntry) => {
    const item = entry.items.at(-1);
    return item === undefined ? 'changed' : changeWords(item);
  };
  if (found.length === 1) {
    const more = first.items.length - 1;
    return {
      title: `${billName(first)} changed`,
      body: `${firstWords(first)}${more > 0 ? ` (and ${more} more)` : ''}`,
    };
  }
  return {
    title: `${found.length} followed bills changed`,
    body: found
      .slice(0, 5)
      .map((entry) => `${billName(entry)}: ${firstWords(entry)}`)
      .join('\n'),
  };
}

/**
 * The imports and refreshes a session has not yet handled that finished while it was open (at
 * or after `since`, when the page was loaded): each is alerted once, or passed over once if alerts
 * are off. Not "absent from the first list of jobs the session read": a refresh that finishes
 * before that first read (a slow start) would count as old and never be alerted.
 */
export function jobsToHandle(
  jobs: readonly Job[],
  since: string,
  handled: ReadonlySet<string>,
): Job[] {
  return jobs.filter(
    (job) =>
      job.kind === 'import' &&
      job.status === 'done' &&
      job.finishedAt !== null &&
      job.finishedAt >= since &&
      !handled.has(job.id),
  );
}
