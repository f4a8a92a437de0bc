// The names of team workspaces' databases on this device (issue 39). A workspace a signed-in
// account belongs to gets a database of its own beside the account's, named after it: the
// account's database, this mark, then random hex (never the workspace's id or name). Its private
// rows are sealed under the account's vault (vault-files.ts reads the account's files for it), so
// it locks and opens with the account, and goes when the account is removed from the device.

export const SPACE_MARK = '.space-';

/** Whether the name is a workspace's database of the account database `account` (any, if none). */
export function isSpaceDatabaseName(name: string, account?: string): boolean {
  const mark = name.lastIndexOf(SPACE_MARK);
  if (mark <= 0 || !/^[0-9a-f]{32}$/.test(name.slice(mark + SPACE_MARK.length))) return false;
  return account === undefined || name.slice(0, mark) === account;
}

/** The account database whose vault seals the database's rows: its own name for an account's. */
export function vaultDatabaseOf(name: string): string {
  return isSpaceDatabaseName(name) ? name.slice(0, name.lastIndexOf(SPACE_MARK)) : name;
}

// Which workspace databases each account database has, and which space is the one open, in
// localStorage beside the accounts' registry (account-databases.ts).
export const SPACES_KEY = 'docket.spaces';
export const ACTIVE_SPACE_KEY = 'docket.space';

export type Spaces = Record<string, Record<string, string>>;

export function local(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function readJson(key: string): unknown {
  try {
    return JSON.parse(local()?.getItem(key) ?? 'null') as unknown;
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readSpaces(): Spaces {
  const parsed = readJson(SPACES_KEY);
  if (!isRecord(parsed)) return {};
  const spaces: Spaces = {};
  for (const [account, byWorkspace] of Object.entries(parsed)) {
    if (!isRecord(byWorkspace)) continue;
    spaces[account] = Object.fromEntries(
      Object.entries(byWorkspace).filter(
        (entry): entry is [string, string] =>
          typeof entry[1] === 'string' && isSpaceDatabaseName(entry[1], account),
      ),
    );
  }
  return spaces;
}

/** The workspace whose database is open for the account database `account`; null: its own. */
export function activeSpaceOf(account: string): string | null {
  const active = readJson(ACTIVE_SPACE_KEY);
  if (!isRecord(active) || active.account !== account || typeof active.workspaceId !== 'string')
    return null;
  return readSpaces()[account]?.[active.workspaceId] === undefined ? null : active.workspaceId;
}

/** The database this page opens for the account database `account`: a workspace's, or its own. */
export function openDatabaseOf(account: string): string {
  const workspaceId = activeSpaceOf(account);
  return workspaceId === null ? account : (readSpaces()[account]?.[workspaceId] ?? account);
}

/** The workspace databases of the account database `account`. */
export function spaceDatabasesOf(account: string): string[] {
  return Object.values(readSpaces()[account] ?? {});
}

/** The account database's workspaces are gone (its removal): they leave the registry. */
export function forgetSpacesOf(account: string): void {
  if (activeSpaceOf(account) !== null) local()?.removeItem(ACTIVE_SPACE_KEY);
  const spaces = readSpaces();
  if (spaces[account] === undefined) return;
  const kept = Object.entries(spaces).filter(([name]) => name !== account);
  local()?.setItem(SPACES_KEY, JSON.stringify(Object.fromEntries(kept)));
}

/** Back to the account's own space (sign-out): the next sign-in opens it. */
export function leaveSpace(): void {
  local()?.removeItem(ACTIVE_SPACE_KEY);
}

/** "Clear this device": no workspace database is known any more. */
export function forgetEverySpace(): void {
  local()?.removeItem(SPACES_KEY);
  local()?.removeItem(ACTIVE_SPACE_KEY);
}
