import { useCallback } from 'react';
import { SpaceLabel } from './space-switcher.tsx';
import { useReading } from './use-reading.ts';
import { useWorkspaceService } from './use-workspace-service.ts';
import type { WorkspaceService } from './workspace-service.ts';
import { TEAM_SPACE } from './workspace-words.ts';

// The name of the workspace whose space the page works in, opened with the account's keys for
// the header's switcher (space-switcher.tsx). Loaded after the first paint; until the name is
// open, or when it cannot be (offline, no cloud password here), the switcher says "Team workspace".

export default function SpaceName({ workspaceId }: { readonly workspaceId: string }) {
  const access = useWorkspaceService();
  if (access.status !== 'ready') return <SpaceLabel name={TEAM_SPACE} />;
  return <OpenedName service={access.service} workspaceId={workspaceId} />;
}

function OpenedName({
  service,
  workspaceId,
}: {
  readonly service: WorkspaceService;
  readonly workspaceId: string;
}) {
  const list = useReading(useCallback(() => service.list(), [service]));
  const name =
    list.reading.kind === 'read'
      ? (list.reading.value.find((workspace) => workspace.id === workspaceId)?.name ?? null)
      : null;
  return <SpaceLabel name={name ?? TEAM_SPACE} />;
}
