import { markBillHistorySeen, readBillHistory } from '@docket/core/lists';
import type { BillHistory } from '@docket/core/store';
import { useEffect, useState } from 'react';
import { billCommandContext } from '../bills/bill-command-services.ts';
import { useDeviceNames } from '../authors/authored-by.tsx';
import { useLiveRead } from '../local-store/live-database.ts';
import { formatDateTime } from '../ui/formatting.ts';
import { changedElsewhereWords, historyFieldLabel, historyValue } from './bill-history-words.ts';

// A bill's History on bill details (issue 37): values of the user's that a change from another
// device replaced, newest first, with what they became, when and by which device (in a team
// workspace, by which member: authors/), and values of others' that this device's newer ones
// replaced when both were written at about the same time. Entries this device has not shown yet
// make the notice "Changed on another device" (or, for a value kept, "Written at the same time on
// another device") at the top of the page, until the bill has been opened.

/** The bill's History, live; undefined while loading. */
export function useBillHistory(billId: string): readonly BillHistory[] | undefined {
  return useLiveRead((store) => readBillHistory(store, billId), [billId]);
}

function useDeviceId(): string | null {
  const [deviceId, setDeviceId] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    billCommandContext()
      .then((context) => {
        if (current) setDeviceId(context.deviceId);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);
  return deviceId;
}

/**
 * "Changed on another device", for the entries this device had not shown when the bill was
 * opened (and any that arrive while it is open). They are marked seen as they are shown, so the
 * next opening of the bill no longer says so; this visit keeps saying it.
 */
export function ChangedElsewhereNotice({ billId }: { readonly billId: string }) {
  const history = useBillHistory(billId);
  const deviceId = useDeviceId();
  // Each entry shown: whether this device's value was the one replaced, or the one kept.
  const [shown, setShown] = useState<ReadonlyMap<string, boolean>>(new Map());
  useEffect(() => {
    if (deviceId === null) return;
    const fresh = (history ?? []).filter((entry) => entry.unseen === true && !shown.has(entry.id));
    if (fresh.length === 0) return;
    billCommandContext()
      .then((context) =>
        markBillHistorySeen(
          context.store,
          fresh.map((entry) => entry.id),
        ),
      )
      .then(() => {
        setShown(
          (before) =>
            new Map([
              ...before,
              ...fresh.map((entry) => [entry.id, entry.byDevice === deviceId] as const),
            ]),
        );
      })
      .catch((error: unknown) => {
        console.error('[docket] Could not mark the History seen:', error);
      });
  }, [history, shown, deviceId]);
  const kept = [...shown.values()].filter(Boolean).length;
  const words = changedElsewhereWords(shown.size - kept, kept);
  if (words === null) return null;
  return (
    <p className="bill-history-notice" role="status">
      {words}
    </p>
  );
}

export function BillHistorySection({ billId }: { readonly billId: string }) {
  const history = useBillHistory(billId);
  const deviceId = useDeviceId();
  // In a team workspace, who replaced the value: the member's name rather than their device.
  const names = useDeviceNames(
    (history ?? []).flatMap((entry) => [entry.byDevice, entry.ofDevice]),
  );

  return (
    <section aria-labelledby="bill-history-heading">
      <h2 id="bill-history-heading">History</h2>
      {history === undefined ? (
        <p role="status">Loading the history…</p>
      ) : history.length === 0 ? (
        <p>No value set on this bill has been replaced by another device.</p>
      ) : (
        <ol className="bill-history" aria-labelledby="bill-history-heading">
          {history.map((entry) => (
            <li key={entry.id}>
              <p>
                <strong>{historyFieldLabel(entry)}</strong>: {historyValue(entry, entry.before)}{' '}
                became {historyValue(entry, entry.after)}
              </p>
              <p className="bill-history-when">
                {formatDateTime(entry.at)}, by{' '}
                {names?.get(entry.byDevice) ??
                  (entry.byDevice === deviceId ? 'this device' : 'another device')}
                {entry.ofDevice === deviceId
                  ? ', replacing the value set here'
                  : entry.byDevice === deviceId
                    ? `, replacing the value set by ${names?.get(entry.ofDevice) ?? 'another device'}`
                    : ''}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
