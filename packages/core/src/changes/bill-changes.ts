import type { Bill, BillAction, BillText, BillVote, Sponsor } from '../bills/bill.ts';
import { billStatuses, type BillStatus } from '../bills/bill-vocabulary.ts';
import { statusWord } from '../bills/bill-naming.ts';
import type { BillChangeItem } from '../store/local-records.ts';

// What changed in a bill between two imports of it, in the terms a person tracking it cares
// about: new actions, a new status, a new text version, a new vote, another title, sponsors who
// joined or left. Everything else a source may rewrite (summaries, subjects, links) is not news.

/** At most this many items of one kind are kept per change: a source that rewrote a whole
 *  history says so in its first items, and the row stays small. */
const PER_KIND = 20;
const MAX_TEXT = 2000;

function cut(text: string): string {
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`;
}

/** The items of `after` that `before` lacks, counted as a multiset by `key`, in their order. */
function added<T>(before: readonly T[], after: readonly T[], key: (item: T) => string): T[] {
  const counts = new Map<string, number>();
  for (const item of before) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  const found: T[] = [];
  for (const item of after) {
    const k = key(item);
    const left = counts.get(k) ?? 0;
    if (left > 0) counts.set(k, left - 1);
    else found.push(item);
  }
  return found;
}

const actionKey = (action: BillAction) =>
  `${action.date ?? ''}|${action.chamber ?? ''}|${action.text}`;
const textKey = (version: BillText) => `${version.date ?? ''}|${version.type}|${version.url ?? ''}`;
const voteKey = (vote: BillVote) => `${vote.date ?? ''}|${vote.chamber ?? ''}|${vote.motion}`;
const sponsorNames = (bill: Bill) =>
  [...bill.sponsors, ...bill.cosponsors].map((sponsor: Sponsor) => sponsor.name);

/** What changed from `before` to `after` (the same bill); empty when nothing worth telling did. */
export function diffBill(before: Bill, after: Bill): BillChangeItem[] {
  const items: BillChangeItem[] = [];
  for (const action of added(before.actions, after.actions, actionKey).slice(0, PER_KIND)) {
    items.push({ kind: 'action', date: action.date, text: cut(action.text) });
  }
  if (before.status !== after.status) {
    items.push({
      kind: 'status',
      from: before.status,
      to: after.status,
      toRaw: after.rawStatus === null ? null : cut(after.rawStatus),
    });
  }
  for (const version of added(before.texts, after.texts, textKey).slice(0, PER_KIND)) {
    items.push({ kind: 'text', date: version.date, type: cut(version.type) });
  }
  for (const vote of added(before.votes, after.votes, voteKey).slice(0, PER_KIND)) {
    items.push({ kind: 'vote', date: vote.date, motion: cut(vote.motion), passed: vote.passed });
  }
  if (before.title !== after.title) {
    items.push({ kind: 'title', from: cut(before.title), to: cut(after.title) });
  }
  const was = sponsorNames(before);
  const now = sponsorNames(after);
  const joined = [...new Set(now.filter((name) => !was.includes(name)))];
  const left = [...new Set(was.filter((name) => !now.includes(name)))];
  if (joined.length > 0 || left.length > 0) {
    items.push({
      kind: 'sponsors',
      added: joined.slice(0, 50).map(cut),
      removed: left.slice(0, 50).map(cut),
    });
  }
  return items;
}

function statusName(code: string): string {
  return (billStatuses as readonly string[]).includes(code) ? statusWord(code as BillStatus) : code;
}

function names(list: readonly string[]): string {
  return list.length <= 3
    ? list.join(', ')
    : `${list.slice(0, 3).join(', ')} and ${list.length - 3} more`;
}

/** One change in words, as the "What changed" list and an alert say it. */
export function changeWords(item: BillChangeItem): string {
  switch (item.kind) {
    case 'action':
      return `New action: ${item.text}`;
    case 'status':
      // The common status words; the source's own (toRaw) is often a whole action's text.
      return `Status: ${statusName(item.to)} (was ${statusName(item.from)})`;
    case 'text':
      return `New text version: ${item.type}`;
    case 'vote':
      return `New vote: ${item.motion}${item.passed === null ? '' : item.passed ? ' (passed)' : ' (failed)'}`;
    case 'title':
      return `Title: ${item.to}`;
    case 'sponsors': {
      const parts: string[] = [];
      if (item.added.length > 0) parts.push(`${names(item.added)} joined`);
      if (item.removed.length > 0) parts.push(`${names(item.removed)} left`);
      return `Sponsors: ${parts.join('; ')}`;
    }
  }
}
