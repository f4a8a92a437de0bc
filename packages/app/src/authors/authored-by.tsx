import { readDeviceAuthor, readFieldAuthor } from '@docket/core/sync';
import type { SyncedTable } from '@docket/core/store';
import { activeWorkspaceId } from '../local-store/account-databases.ts';
import { useLiveRead } from '../local-store/live-database.ts';
import { billCommandContext } from '../bills/bill-command-services.ts';
import { useAppState } from '../state/use-app-state.ts';
import { useEffect, useMemo, useState } from 'react';
import { formatTimeAgo } from '../ui/formatting.ts';
import { useNow } from '../ui/use-now.ts';
import { useMemberNames } from './member-names.ts';

// Who wrote a row in a team workspace, and when (issue 39): "Ana · 2 h ago", after what the row
// says ("Support · Ana · 2 h ago"). The member is the one whose device set the field, as the pull
// recorded it (core's sync/change-authors.ts); nothing is shown in the personal space, where
// every row is the account's.

/** Someone whose name this device cannot give (offline, no longer a member, a contested device). */
export const A_MEMBER = 'A member';

interface AuthoredProps {
  readonly table: SyncedTable;
  readonly rowId: string;
  /** The field whose writer is meant; the row's newest when absent. */
  readonly field?: string;
}

/** This device and its signed-in account, once the device's id is read; null until then. */
function useOwnDevice(): { deviceId: string; userId: string } | null {
  const userId = useAppState((state) => state.user?.id ?? null);
  const [deviceId, setDeviceId] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    billCommandContext().then(
      (context) => {
        if (live) setDeviceId(context.deviceId);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return useMemo(
    () => (userId === null || deviceId === null ? null : { deviceId, userId }),
    [userId, deviceId],
  );
}

/** Who set the field and when, in words; null in the personal space or when unknown. */
function useAuthored({ table, rowId, field }: AuthoredProps): { name: string; at: string } | null {
  const names = useMemberNames();
  // The personal space names no one: nothing to read there.
  const team = activeWorkspaceId() !== null;
  const own = useOwnDevice();
  const author = useLiveRead(
    (store) =>
      team
        ? store.read(['syncState', 'settings'], (tx) =>
            readFieldAuthor(tx, table, rowId, field, own ?? undefined),
          )
        : Promise.resolve(null),
    [team, table, rowId, field, own],
  );
  if (names === null || author === undefined || author === null) return null;
  return {
    name: (author.userId === null ? undefined : names.get(author.userId)) ?? A_MEMBER,
    at: author.at,
  };
}

function Byline({ name, at }: { readonly name: string; readonly at: string }) {
  // "just now" becomes "1 min ago" while the screen stays open.
  const now = useNow(60_000);
  return (
    <span className="authored-by">
      {' · '}
      <span dir="auto">{name}</span>
      {' · '}
      <time dateTime={at}>{formatTimeAgo(at, now)}</time>
    </span>
  );
}

/** " · Ana · 2 h ago", to follow what the row says; nothing when no one is to be named. */
export function AuthoredBy(props: AuthoredProps) {
  const authored = useAuthored(props);
  return authored === null ? null : <Byline {...authored} />;
}

/** A line of its own, "Support · Ana · 2 h ago"; nothing when no one is to be named. */
export function AuthoredLine({ lead, ...props }: AuthoredProps & { readonly lead: string }) {
  const authored = useAuthored(props);
  if (authored === null) return null;
  return (
    <p className="authored-line">
      {lead}
      <Byline {...authored} />
    </p>
  );
}

/**
 * The names of the members the devices were recorded as, by device id (a bill's History says
 * who replaced a value); null in the personal space and until read. A device this one cannot
 * name is absent.
 */
export function useDeviceNames(deviceIds: readonly string[]): ReadonlyMap<string, string> | null {
  const names = useMemberNames();
  const key = [...new Set(deviceIds)].sort().join('\n');
  const authors = useLiveRead(
    (store) =>
      store.read(['settings'], async (tx) => {
        const found = new Map<string, string | null>();
        for (const deviceId of key === '' ? [] : key.split('\n')) {
          const userId = await readDeviceAuthor(tx, deviceId);
          if (userId !== undefined) found.set(deviceId, userId);
        }
        return found;
      }),
    [key],
  );
  if (names === null || authors === undefined) return null;
  return new Map(
    [...authors].map(([deviceId, userId]) => [
      deviceId,
      (userId === null ? undefined : names.get(userId)) ?? A_MEMBER,
    ]),
  );
}
