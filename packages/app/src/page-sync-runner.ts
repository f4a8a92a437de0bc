import type { ApiClient } from './api/api-client.ts';
import { createSyncRunner } from './sync/sync-service.ts';
import type { SyncRunner } from './sync/sync-runner.ts';
import { activeWorkspaceSync } from './workspaces/workspace-sync-target.ts';

// One chunk for the page's sync (each chunk the first script names costs it a few bytes).
export { startSyncTriggers } from './sync/sync-service.ts';

/**
 * The page's sync runner (loaded after the first paint by app-startup.tsx): the personal space's
 * log, or in a team workspace's space the workspace's log under its keys. Here rather than in
 * sync/, which the workspaces' code builds on.
 */
export function createPageSyncRunner(api: ApiClient): SyncRunner {
  return createSyncRunner(api, { workspace: activeWorkspaceSync(api) });
}
