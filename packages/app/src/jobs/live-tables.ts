import type Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import type { Dataset, Job } from '@docket/core/store';
import { createDocketDatabase } from '../local-store/docket-database.ts';

// Live reads of the jobs and datasets tables for the screens. The import worker writes through
// its own connection; Dexie tells every other connection of the same origin about each commit
// (over a BroadcastChannel), so these queries re-run as a job moves along, without polling and
// without the worker having to talk to the screens.

let database: Dexie | null = null;

/** The page's own read connection for live queries, opened on first use. */
export function liveDatabase(): Dexie {
  database ??= createDocketDatabase();
  return database;
}

/** Every job, newest first; undefined while loading. */
export function useJobs(): Job[] | undefined {
  return useLiveQuery(
    () => liveDatabase().table<Job, string>('jobs').orderBy('createdAt').reverse().toArray(),
    [],
  );
}

/** Every dataset, oldest first; undefined while loading. */
export function useDatasets(): Dataset[] | undefined {
  return useLiveQuery(
    () => liveDatabase().table<Dataset, string>('datasets').orderBy('createdAt').toArray(),
    [],
  );
}

/** One dataset: undefined while loading, null when there is none with that id. */
export function useDataset(id: string | undefined): Dataset | null | undefined {
  return useLiveQuery(
    async () =>
      id === undefined
        ? null
        : ((await liveDatabase().table<Dataset, string>('datasets').get(id)) ?? null),
    [id],
  );
}
