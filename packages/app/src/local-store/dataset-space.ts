import { useSyncExternalStore } from 'react';
import { activeAccountDatabase } from './account-databases.ts';
import { activeSpaceOf } from './space-databases.ts';
import { activeSpaceRole, ReadOnlySpaceError, subscribeSpaceRole } from './space-role.ts';

// A team workspace's datasets (issue 39) are the team's definitions (a URL or a source's API, a
// session, a schedule): every member's device fetches and refreshes the bills itself, and no
// public bill goes to the server. So in a workspace's space only an owner adds, changes and
// deletes a dataset, and a dataset there is never made of picked files, which would stay on the
// owner's device. Like a viewer's, these are refusals of the device: the server cannot read which
// table a sealed change touches. Apart from space-role.ts, whose words the first screens load.

/** What an editor or a viewer is told where an owner's dataset controls would be. */
export const DATASET_OWNER_WORDS =
  'In this workspace an owner adds, changes and deletes datasets; your device fetches their bills itself.';

/** Why a team workspace's dataset is never made of files. */
export const TEAM_DATASET_WORDS =
  'In a team workspace a dataset comes from a URL or a source’s API, which each member’s device fetches itself; files you pick stay on your device, so add them in your personal space.';

/** What Settings says of API keys in a team workspace (core's sync keeps them on the device). */
export const TEAM_API_KEY_WORDS =
  'In a team workspace your API keys stay on this device and are never sent to the team: each member’s device fetches the team’s datasets with its own keys.';

/** Whether the page works in a team workspace's space (not the personal one). */
export function inWorkspaceSpace(): boolean {
  const account = activeAccountDatabase();
  return account !== null && activeSpaceOf(account) !== null;
}

/** Whether this account manages the space's datasets: anyone in the personal space, an owner
 *  in a team workspace. */
export function spaceManagesDatasets(): boolean {
  return !inWorkspaceSpace() || activeSpaceRole() === 'owner';
}

/** Refuses a dataset's change on this device when the account does not manage the space's. */
export function checkManagesDatasets(): void {
  if (!spaceManagesDatasets()) throw new ReadOnlySpaceError(DATASET_OWNER_WORDS);
}

/** Refuses a team workspace's dataset made of picked files. */
export function checkDatasetSource(pickedFiles: number): void {
  if (pickedFiles > 0 && inWorkspaceSpace()) throw new ReadOnlySpaceError(TEAM_DATASET_WORDS);
}

/** The space as the datasets screens see it. */
export interface DatasetSpace {
  /** A team workspace's space. */
  readonly team: boolean;
  /** This account adds, changes and deletes its datasets. */
  readonly manages: boolean;
}

const PERSONAL: DatasetSpace = { team: false, manages: true };
let last: DatasetSpace = PERSONAL;

function currentSpace(): DatasetSpace {
  const team = inWorkspaceSpace();
  const manages = spaceManagesDatasets();
  // The same object while nothing changed, as useSyncExternalStore requires.
  if (last.team !== team || last.manages !== manages) last = { team, manages };
  return last;
}

/** The space as the datasets screens see it, again when the role kept for it changes. */
export function useDatasetSpace(): DatasetSpace {
  return useSyncExternalStore(subscribeSpaceRole, currentSpace, () => PERSONAL);
}
