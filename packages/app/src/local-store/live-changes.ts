import { CHANGE_FEED_TABLES, type ChangeFeedEntry, readChangeFeed } from '@docket/core/changes';
import { useLiveRead } from './live-database.ts';

// Live reads of what changed (billChanges with the seen marks and what the user follows).

/** The unseen changes of followed bills, newest first; undefined while loading. */
export function useChangeFeed(): ChangeFeedEntry[] | undefined {
  return useLiveRead((store) => store.read(CHANGE_FEED_TABLES, (tx) => readChangeFeed(tx)), []);
}
