import type { WorkspaceRole } from '@docket/protocol/workspaces';
import {
  accountDatabaseOf,
  activeAccountDatabase,
  tellActiveDatabase,
} from './account-databases.ts';
import { ACTIVE_SPACE_KEY, local, readSpaces, SPACE_MARK, SPACES_KEY } from './space-databases.ts';

// Entering a team workspace's space (issue 39), apart from account-databases.ts so that only the
// screen that enters one loads it: the first screens' script has a budget.

/** A new workspace database's name for the account database `account`. */
function newSpaceDatabaseName(account: string): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `${account}${SPACE_MARK}${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Makes the workspace's database (made for it the first time), or the account's own with null,
 * the one the account database `account` opens; answers that database.
 */
function chooseSpace(
  account: string,
  workspaceId: string | null,
  role: WorkspaceRole | null,
): string {
  if (workspaceId === null) {
    local()?.removeItem(ACTIVE_SPACE_KEY);
    return account;
  }
  const spaces = readSpaces();
  const mine = spaces[account] ?? {};
  const name = mine[workspaceId] ?? newSpaceDatabaseName(account);
  local()?.setItem(
    SPACES_KEY,
    JSON.stringify({ ...spaces, [account]: { ...mine, [workspaceId]: name } }),
  );
  local()?.setItem(ACTIVE_SPACE_KEY, JSON.stringify({ account, workspaceId, role }));
  return name;
}

/**
 * The signed-in account enters a team workspace's space (its own database on this device, made
 * the first time, sealed under the account's vault), or its personal space with null, with its
 * role there (space-role.ts: a viewer's screens offer no change). Answers whether the page must
 * reload, as entering an account's database does.
 */
export async function enterSpace(
  userId: string,
  workspaceId: string | null,
  role: WorkspaceRole | null = null,
): Promise<{ reload: boolean }> {
  const account = accountDatabaseOf(userId);
  if (account === undefined || activeAccountDatabase() !== account) {
    throw new Error('Sign in before entering a workspace.');
  }
  chooseSpace(account, workspaceId, role);
  return { reload: await tellActiveDatabase(userId) };
}
