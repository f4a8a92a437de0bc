import { Link } from 'react-router-dom';
import { useChangeFeed } from '../local-store/live-changes.ts';
import './what-changed.css';

// "N followed bills changed" on the Bills and Tracked tabs (issue 40's morning check), in a file
// of its own: the Bills tab is the first screen, and this needs only the live change feed, not
// What changed's commands.

/** The address and state that open Tracked on its What changed segment. */
export const WHAT_CHANGED_LINK = { pathname: '/tabs/tracked', state: { view: 'changes' } } as const;

/** Whether a location's state asks Tracked for What changed (WHAT_CHANGED_LINK). */
export function asksForWhatChanged(state: unknown): boolean {
  return (state as { view?: unknown } | null)?.view === 'changes';
}

/**
 * "N followed bills changed", a link to What changed, on the Bills and Tracked tabs while there is
 * news (the morning check: the news is where one looks first). Nothing without news.
 */
export function ChangedBillsNews() {
  const unseen = useChangeFeed()?.length ?? 0;
  if (unseen === 0) return null;
  return (
    <p className="changed-bills-news">
      <Link to={WHAT_CHANGED_LINK.pathname} state={WHAT_CHANGED_LINK.state}>
        {unseen === 1 ? '1 followed bill changed' : `${unseen} followed bills changed`}
      </Link>
    </p>
  );
}
