import { accountDatabaseOf, activeAccountDatabase } from './account-databases.ts';
import { activeSpaceOf, local, readSpaces, SPACES_KEY } from './space-databases.ts';

// A workspace the account no longer belongs to (removed by an owner, left, or deleted) is
// forgotten on this device (issue 39): its database, the team's bills, tags and notes as this
// device last pulled them, is deleted, so nothing of it stays on the device of someone who was
// removed, and nothing of it waits there for a sign-in. The server's list of the account's
// workspaces says which are gone (workspace-service.ts reads it on every page, for the header's
// switcher). The list alone is not trusted with a deletion: each workspace missing from it is
// asked about on its own (`confirmGone`), and only a refusal that names the account as no member
// of it deletes anything; a server that answers the list wrongly, or not at all, costs nothing.
// The space the page works in cannot be deleted while it is open: the page leaves it for the
// personal space first, and the next reading of the list deletes it.

/** Said on the Workspaces screen after the page left a workspace the account no longer has. */
export const SPACE_GONE_KEY = 'docket.space-gone';

/** Why the page left the workspace it worked in. */
export type SpaceGone = 'no-longer-member' | 'deleted';

export const SPACE_GONE_WORDS: Readonly<Record<SpaceGone, string>> = {
  'no-longer-member':
    'You are no longer a member of the workspace you were working in: its copy on this device was deleted, and you are back in your personal space.',
  deleted:
    'The workspace is deleted, for every member: its copy on this device goes too, and you are back in your personal space.',
};

let taken: string | null = null;

/** What the Workspaces screen says once, after the page left a workspace; null: nothing. */
export function takeSpaceGone(): string | null {
  // Kept for the page's life once taken: a screen mounted again says it again.
  taken ??= sessionStorage.getItem(SPACE_GONE_KEY) ?? '';
  sessionStorage.removeItem(SPACE_GONE_KEY);
  return taken === 'deleted' || taken === 'no-longer-member' ? SPACE_GONE_WORDS[taken] : null;
}

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') {
      resolve();
      return;
    }
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => {
      resolve();
    };
    // Another tab holds it open: it goes once that tab lets go; nothing more to wait for here.
    request.onblocked = () => {
      resolve();
    };
    request.onerror = () => {
      console.error('[docket] Could not delete a workspace’s database:', request.error);
      resolve();
    };
  });
}

/** Whether the server, asked about this one workspace, says the account is not in it. */
export type ConfirmGone = (workspaceId: string) => Promise<boolean>;

/** Asks `confirmGone` about each id, one at a time; an error counts as not confirmed. */
async function confirmedGone(
  ids: readonly string[],
  confirmGone: ConfirmGone,
): Promise<Set<string>> {
  const confirmed = new Set<string>();
  for (const id of ids) {
    if (await confirmGone(id).catch(() => false)) confirmed.add(id);
  }
  return confirmed;
}

/**
 * Forgets the account's workspace spaces on this device that `listed` (every workspace the
 * server says the account belongs to) no longer names and that `confirmGone` confirms. Answers
 * whether the page works in one of them: it must then leave for the personal space, and the
 * space goes at the next reading.
 */
export async function forgetSpacesNotListed(
  userId: string,
  listed: ReadonlySet<string>,
  confirmGone: ConfirmGone,
): Promise<{ leave: boolean }> {
  const account = accountDatabaseOf(userId);
  if (account === undefined || activeAccountDatabase() !== account) return { leave: false };
  const mine = readSpaces()[account] ?? {};
  const active = activeSpaceOf(account);
  const unlisted = Object.keys(mine).filter((workspaceId) => !listed.has(workspaceId));
  if (unlisted.length === 0) return { leave: false };
  const confirmed = await confirmedGone(unlisted, confirmGone);
  const gone = Object.entries(mine).filter(
    ([workspaceId]) => confirmed.has(workspaceId) && workspaceId !== active,
  );
  if (gone.length > 0) {
    const kept = Object.fromEntries(
      Object.entries(mine).filter(([workspaceId]) => !gone.some(([id]) => id === workspaceId)),
    );
    local()?.setItem(SPACES_KEY, JSON.stringify({ ...readSpaces(), [account]: kept }));
    await Promise.all(gone.map(([, name]) => deleteDatabase(name)));
  }
  return { leave: active !== null && confirmed.has(active) };
}
