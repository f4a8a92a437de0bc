import { IonButton } from '@ionic/react';
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { A_MEMBER } from '../authors/authored-by.tsx';
import { useMemberNames } from '../authors/member-names.ts';
import { billDetailsPath } from '../bills/bill-words.ts';
import {
  type ActivityItem,
  markActivitySeen,
  useTeamActivity,
} from '../local-store/live-activity.ts';
import { useAppState } from '../state/use-app-state.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { formatTimeAgo, plural } from '../ui/formatting.ts';
import { useNow } from '../ui/use-now.ts';
import { activityWords } from './activity-words.ts';
import './team-activity.css';

// A team workspace's Activity (issue 39): what teammates did, newest first, those since this
// member last looked marked "New", and "Mark all as seen"; the More tab's badge counts them
// (unseen-activity-badge.tsx). In the personal space it says where Activity is.

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function ActivityRow({ item, name, now }: { item: ActivityItem; name: string; now: number }) {
  const { entry } = item;
  const words = activityWords(item);
  return (
    <li className="record-card activity-item">
      <p>
        {entry.unseen && <span className="activity-new">New </span>}
        <span dir="auto">{name}</span> {words}
        {' · '}
        <time dateTime={entry.at}>{formatTimeAgo(entry.at, now)}</time>
      </p>
      {entry.billId !== null && !entry.deleted && (
        <Link to={billDetailsPath(entry.billId)}>
          Open {item.bill?.identifier ?? 'the bill'}
          {item.bill !== null && <span className="visually-hidden">: {item.bill.title}</span>}
        </Link>
      )}
    </li>
  );
}

/** The Activity of the workspace the page works in. */
export function TeamActivity() {
  const userId = useAppState((state) => state.user?.id ?? null);
  const activity = useTeamActivity(userId);
  const names = useMemberNames();
  const now = useNow(60_000);
  const toast = useStatusToast();
  const [busy, setBusy] = useState(false);
  // "Mark all as seen" goes once nothing is unseen: the focus moves to the words that say so.
  const said = useRef<HTMLParagraphElement>(null);
  if (activity === null) {
    return (
      <p>
        Activity shows what your teammates tag, decide, take a position on and annotate in a team
        workspace. Open one from <Link to="/tabs/more/workspaces">Workspaces</Link>.
      </p>
    );
  }
  if (activity === undefined) return <p role="status">Loading the activity…</p>;
  const newest = activity.items[0]?.entry.at;
  const markAll = async () => {
    if (newest === undefined || userId === null) return;
    setBusy(true);
    try {
      await markActivitySeen(userId, newest);
      said.current?.focus();
      toast.done('Marked the activity as seen.');
    } catch (error) {
      toast.failed(`Could not mark the activity as seen: ${messageOf(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <div className="screen-actions">
        <p role="status" ref={said} tabIndex={-1}>
          {activity.unseen === 0
            ? 'Nothing new since you last looked.'
            : `${plural(activity.unseen, 'change')} by teammates since you last looked.`}
        </p>
        {activity.unseen > 0 && (
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
      {activity.items.length === 0 ? (
        <p>
          Nothing yet. What your teammates tag, decide, take a position on or annotate shows here,
          with their name, once your device syncs.
        </p>
      ) : (
        <ul className="record-list" aria-label="What teammates did">
          {activity.items.map((item) => (
            <ActivityRow
              key={`${item.entry.table}|${item.entry.rowId}`}
              item={item}
              name={names?.get(item.entry.userId) ?? A_MEMBER}
              now={now}
            />
          ))}
        </ul>
      )}
    </>
  );
}
