import { watchLiveRead } from './live-database.ts';

// The outbox's size, watched outside React: the sync service schedules a sync when it grows.

export function watchOutboxCount(
  onCount: (count: number) => void,
  onError: (error: unknown) => void,
): () => void {
  return watchLiveRead(
    (store) => store.read(['outbox'], (tx) => tx.count('outbox')),
    onCount,
    onError,
  );
}
