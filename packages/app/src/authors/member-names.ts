import { useEffect, useState } from 'react';
import type { ApiClient } from '../api/api-client.ts';
import { activeWorkspaceId } from '../local-store/account-databases.ts';
import { useAppServices } from '../services/app-services.ts';
import { useAppState } from '../state/use-app-state.ts';
import { listMemberNames } from '../api/workspaces-api.ts';

// The names rows are shown with in a team workspace (issue 39): each confirmed member's name as
// their account has it (`GET …/names`, which any confirmed member may read), and "You" for this
// account. Read from the
// server once per page and workspace; offline, or for someone no longer a member, the rows say
// "A member" (authored-by.tsx).

/** This account, where a row names who wrote it. */
export const YOU = 'You';

const read = new Map<string, Promise<ReadonlyMap<string, string>>>();

function namesOf(api: ApiClient, workspaceId: string): Promise<ReadonlyMap<string, string>> {
  let names = read.get(workspaceId);
  if (names === undefined) {
    names = listMemberNames(api, workspaceId).then(
      ({ members }) => new Map(members.map((member) => [member.userId, member.name])),
      () => {
        // Offline or refused: asked again by the next page that needs a name.
        read.delete(workspaceId);
        return new Map<string, string>();
      },
    );
    read.set(workspaceId, names);
  }
  return names;
}

/**
 * The members' names of the workspace the page works in, by account id; null in the personal
 * space (where rows are all the account's and name no one) and until they are read.
 */
export function useMemberNames(): ReadonlyMap<string, string> | null {
  const { api } = useAppServices();
  const me = useAppState((state) => state.user?.id ?? null);
  const workspaceId = activeWorkspaceId();
  const [names, setNames] = useState<ReadonlyMap<string, string> | null>(null);
  useEffect(() => {
    if (workspaceId === null) return undefined;
    let live = true;
    void namesOf(api, workspaceId).then((read) => {
      if (!live) return;
      const withMe = new Map(read);
      if (me !== null) withMe.set(me, YOU);
      setNames(withMe);
    });
    return () => {
      live = false;
    };
  }, [api, me, workspaceId]);
  return workspaceId === null ? null : names;
}
