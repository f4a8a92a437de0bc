import { ACTIVE_KEY, REGISTRY_KEY } from './account-databases.ts';
import { ACTIVE_SPACE_KEY, SPACES_KEY } from './space-databases.ts';

// For tests: an account signed in on this browser, and a team workspace's space it works in, as a
// page finds them in localStorage (account-databases.ts, space-databases.ts). One place, so the
// tests of every screen that reads the space set it up the same way.

/** The account database of user-1 on this browser. */
export const TEST_ACCOUNT_DB = `docket-${'a'.repeat(32)}`;
/** The database of workspace `TEST_WORKSPACE_ID`'s space, beside it. */
export const TEST_SPACE_DB = `${TEST_ACCOUNT_DB}.space-${'b'.repeat(32)}`;
export const TEST_WORKSPACE_ID = 'ws-1';

/** user-1 signed in on this browser, in the personal space. */
export function signedInHere(): void {
  localStorage.setItem(REGISTRY_KEY, JSON.stringify({ 'user-1': TEST_ACCOUNT_DB }));
  localStorage.setItem(ACTIVE_KEY, TEST_ACCOUNT_DB);
}

/** user-1 has entered the workspace's space on this browser once (its database is known). */
export function knowsWorkspace(workspaceId: string = TEST_WORKSPACE_ID): void {
  signedInHere();
  localStorage.setItem(
    SPACES_KEY,
    JSON.stringify({ [TEST_ACCOUNT_DB]: { [workspaceId]: TEST_SPACE_DB } }),
  );
}

/** user-1 works in the workspace's space, with `role` when given. */
export function workingInWorkspace(role?: string, workspaceId: string = TEST_WORKSPACE_ID): void {
  knowsWorkspace(workspaceId);
  localStorage.setItem(
    ACTIVE_SPACE_KEY,
    JSON.stringify({
      account: TEST_ACCOUNT_DB,
      workspaceId,
      ...(role === undefined ? {} : { role }),
    }),
  );
}

/** user-1 works in the personal space again. */
export function workingInPersonalSpace(): void {
  signedInHere();
  localStorage.removeItem(ACTIVE_SPACE_KEY);
}
