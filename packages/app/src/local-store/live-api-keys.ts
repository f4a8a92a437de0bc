import type { ApiKey } from '@docket/core/store';
import { useLiveRow } from './live-database.ts';

// Live reads of the user's API keys (core's sources/api-keys.ts), one per source.

/** The saved key of a source: null when there is none, undefined while loading. */
export function useApiKey(source: ApiKey['source']): ApiKey | null | undefined {
  return useLiveRow('apiKeys', source);
}
