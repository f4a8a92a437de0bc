import { type Endpoint, type Remote, wrap } from 'comlink';
import type { VersionDiff } from '@docket/core/text';
import type { VersionDiffApi } from './version-diff-service.ts';

// The page's handle on the diff worker, started when a comparison is first opened and kept for
// the page's life. A newer question makes the answer to an older one moot: only the latest is
// given back, the others resolve as 'stale'.

export interface VersionDiffClient {
  diff(older: string, newer: string): Promise<VersionDiff | null | 'stale'>;
}

export function createVersionDiffClient(endpoint: () => Endpoint): VersionDiffClient {
  let remote: Remote<VersionDiffApi> | null = null;
  let latest = 0;
  return {
    async diff(older, newer) {
      remote ??= wrap<VersionDiffApi>(endpoint());
      const asked = ++latest;
      const answer = await remote.diff(older, newer);
      return asked === latest ? answer : 'stale';
    },
  };
}

/** The page's diff worker. */
export const versionDiffs: VersionDiffClient = createVersionDiffClient(
  () =>
    new Worker(new URL('./version-diff-worker.ts', import.meta.url), {
      type: 'module',
      name: 'docket-diff',
    }),
);
