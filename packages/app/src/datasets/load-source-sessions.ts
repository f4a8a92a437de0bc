import { readDevicePreferences } from '@docket/core/device';
import type { SourceSession } from '@docket/core/sources';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import { legiscanQueries } from '../import-worker/legiscan-queries.ts';
import {
  downloadSessionList,
  type SessionListRequest,
} from '../import-worker/session-list-download.ts';
import { pageSourceFetch } from '../import-worker/source-fetcher.ts';
import { relaySourceRequest } from '../import-worker/source-relay.ts';
import type { SourceFetcher } from '../platform/platform.ts';

// The add-dataset form's list of sessions, asked from the page as "Get text" asks its text: the
// native shells' HTTP where there is one, else the browser's fetch, then the Docket server's relay
// when the user allows it; a LegiScan query counted against the key's month on this device.

export async function loadSourceSessions(
  request: SessionListRequest,
  key: string,
  sourceFetcher: SourceFetcher | null,
): Promise<SourceSession[]> {
  const store = await pageLocalStore();
  const preferences = await store.read(['settings'], readDevicePreferences);
  return downloadSessionList(request, key, {
    fetch: pageSourceFetch(sourceFetcher),
    relay: preferences.sourceRelay ? relaySourceRequest : null,
    ...(request.source === 'legiscan'
      ? { queries: legiscanQueries(store, key, () => new Date().toISOString()) }
      : {}),
  });
}
