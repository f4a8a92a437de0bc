import { IonBadge, IonButton } from '@ionic/react';
import { changeWords, type ChangeFeedEntry } from '@docket/core/changes';
import { markChangesSeen } from '@docket/core/commands';
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { billCommandContext } from '../bills/bill-command-services.ts';
import { billDetailsPath } from '../bills/bill-words.ts';
import { refreshable, useRefreshAll } from '../datasets/dataset-refresh.tsx';
import { useDatasets } from '../local-store/live-datasets.ts';
import { useChangeFeed } from '../local-store/live-changes.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { formatDateTime, plural } from '../ui/formatting.ts';
import { type PullState, usePullToRefresh } from '../ui/use-pull-to-refresh.ts';
import '../ui/forms.css';
import './what-changed.css';

// The Tracked tab's "What changed" segment: the bills the user follows (tracked, a position, a
// tag) that changed since they last looked, newest first, each change in words, and "Mark all as
// seen". The list is core's change feed (changes/change-feed.ts), read live.

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function ChangedBill({ entry }: { readonly entry: ChangeFeedEntry }) {
  const headingId = `changed-${entry.billId}`;
  return (
    <li className="record-card changed-bill" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <Link to={billDetailsPath(entry.billId)}>{entry.bill?.identifier ?? entry.billId}</Link>
      </h3>
      {entry.bill !== undefined && <p className="changed-bill-title">{entry.bill.title}</p>}
      <ul className="changed-bill-items">
        {entry.items.map((item, index) => (
          <li key={index}>{changeWords(item)}</li>
        ))}
      </ul>
      <p className="changed-bill-time">Found {formatDateTime(entry.at)}</p>
    </li>
  );
}

/** What the pull shows while a finger pulls the list (the Refresh button says it otherwise). */
function pullWords(state: PullState): string | null {
  if (state.kind === 'refreshing') return 'Refreshing…';
  if (state.kind === 'pulling') return state.ready ? 'Release to refresh' : 'Pull to refresh';
  return null;
}

/** "Refresh": every dataset from a URL or an API asked now; nothing to ask when none is. */
function useRefreshFromSources() {
  const refreshAll = useRefreshAll();
  const fromSources = (useDatasets() ?? []).some(refreshable);
  const [refreshing, setRefreshing] = useState(false);
  const refresh = async () => {
    if (!fromSources) return;
    setRefreshing(true);
    try {
      await refreshAll();
    } finally {
      setRefreshing(false);
    }
  };
  return { fromSources, refreshing, refresh };
}

/** "Mark all as seen": the feed's bills marked seen, with the outcome as a toast. */
function useMarkAllSeen(feed: readonly ChangeFeedEntry[] | undefined) {
  const toast = useStatusToast();
  const [busy, setBusy] = useState(false);
  const markAll = async () => {
    if (feed === undefined) return;
    setBusy(true);
    try {
      const marked = await markChangesSeen(await billCommandContext(), feed);
      toast.done(`Marked ${plural(marked, 'bill')} as seen.`);
    } catch (error) {
      toast.failed(messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, markAll };
}

/** The changed bills, or why there are none (and what Refresh would ask). */
function ChangedBills({
  feed,
  fromSources,
}: {
  /** Undefined while read. */
  readonly feed: readonly ChangeFeedEntry[] | undefined;
  /** Whether a dataset comes from a URL or an API, so Refresh has something to ask. */
  readonly fromSources: boolean;
}) {
  if (feed === undefined) return <p role="status">Loading what changed…</p>;
  if (feed.length === 0) {
    return (
      <p className="what-changed-empty">
        Nothing new on the bills you follow. Changes found when a dataset is refreshed show here.
        {fromSources
          ? ' Refresh asks every source from a URL or an API now; Docket also does when it opens and every few hours.'
          : ' Refresh asks datasets from a URL or an API; those made of picked files do not change.'}
      </p>
    );
  }
  return (
    <ul className="record-list" aria-label="Changed bills">
      {feed.map((entry) => (
        <ChangedBill key={entry.billId} entry={entry} />
      ))}
    </ul>
  );
}

export function WhatChanged() {
  const feed = useChangeFeed();
  const { busy, markAll } = useMarkAllSeen(feed);
  const { fromSources, refreshing, refresh } = useRefreshFromSources();
  const section = useRef<HTMLElement>(null);
  const pull = usePullToRefresh(section, refresh);
  const pulled = pullWords(pull);
  return (
    <section ref={section} className="what-changed" aria-labelledby="what-changed-heading">
      {pulled !== null && (
        <p
          className="pull-to-refresh"
          aria-hidden="true"
          style={pull.kind === 'pulling' ? { height: `${pull.distance}px` } : undefined}
        >
          {pulled}
        </p>
      )}
      <h2 id="what-changed-heading">What changed</h2>
      <div className="screen-actions">
        {feed !== undefined && feed.length > 0 && (
          <p role="status">{plural(feed.length, 'bill')} changed since you last looked.</p>
        )}
        <IonButton
          fill="outline"
          disabled={!fromSources || refreshing || pull.kind === 'refreshing'}
          onClick={() => {
            void refresh();
          }}
        >
          Refresh
        </IonButton>
        {feed !== undefined && feed.length > 0 && (
          <IonButton
            disabled={busy}
            onClick={() => {
              void markAll();
            }}
          >
            Mark all as seen
          </IonButton>
        )}
      </div>
      <ChangedBills feed={feed} fromSources={fromSources} />
    </section>
  );
}

/**
 * The Tracked tab button's count of followed bills with unseen changes, said in words to screen
 * readers. A component of its own, reading live: Ionic's tab bar does not re-render the buttons
 * it was given when the tabs' page does.
 */
export function UnseenChangesBadge() {
  const unseen = useChangeFeed()?.length ?? 0;
  if (unseen === 0) return null;
  return (
    <>
      <IonBadge aria-hidden="true" className="unseen-badge">
        {unseen}
      </IonBadge>
      <span className="visually-hidden">{plural(unseen, 'bill')} with unseen changes</span>
    </>
  );
}
