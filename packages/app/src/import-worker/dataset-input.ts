import { loadStoredDatasetFiles } from '@docket/core/commands';
import { readDevicePreferences } from '@docket/core/device';
import type { LoadInput } from '@docket/core/import-jobs';
import {
  readApiKey,
  readLegiscanKept,
  saveLegiscanKept,
  splitLegiscanSourceHash,
} from '@docket/core/sources';
import type { Dataset, LocalStore } from '@docket/core/store';
import { downloadCongress } from './congress-download.ts';
import { downloadGovInfo } from './govinfo-download.ts';
import { downloadLegiscan } from './legiscan-download.ts';
import { legiscanQueries } from './legiscan-queries.ts';
import { downloadOpenStates } from './openstates-download.ts';
import { downloadSource, type SourceFetch, type SourceRequest } from './source-download.ts';

// What an import of a dataset reads (core's LoadInput), as the import runner gives it to each
// job: the dataset's stored files, or a download from its origin (LegiScan, Open States,
// GovInfo's bulk data, the congress.gov API, a URL), against the validators of the last import
// that finished on this device.

/** The platform pieces a dataset's download needs (the import runner's deps have them all). */
export interface DatasetInputDeps {
  readonly store: LocalStore;
  readonly fetch: SourceFetch;
  readonly sha256Hex: (bytes: Uint8Array<ArrayBuffer>) => Promise<string>;
  readonly now: () => string;
  /** Sends a download to the Docket server's relay (source-download.ts); absent: no relay. */
  readonly relay?: (request: SourceRequest) => Promise<Response>;
}

/** Reads a dataset's input for its import: its stored files, or a download from its origin. */
export async function loadDatasetInput(
  deps: DatasetInputDeps,
  dataset: Dataset,
  progress: Parameters<LoadInput>[1],
): ReturnType<LoadInput> {
  const { store } = deps;
  const origin = dataset.origin;
  if (origin.kind === 'files') return loadStoredDatasetFiles(store, dataset);
  const preferences = await store.read(['settings'], readDevicePreferences);
  const relay = preferences.sourceRelay ? (deps.relay ?? null) : null;
  // The validators name what the bills on this device were read from: only once an import of
  // the dataset finished here (a failed or cancelled one leaves those bills as they were).
  const imported = dataset.lastImportAt !== null;
  if (origin.kind === 'legiscan') {
    return loadLegiscanInput(deps, dataset, origin, { imported, relay, progress });
  }
  if (origin.kind === 'openstates') {
    return downloadOpenStates(
      origin,
      await readApiKey(store, 'openstates'),
      imported ? (dataset.sourceUpdatedSince ?? null) : null,
      { fetch: deps.fetch, relay },
    );
  }
  if (origin.kind === 'govinfo') {
    return downloadGovInfo(
      origin,
      {
        hash: imported ? (dataset.sourceHash ?? null) : null,
        since: imported ? (dataset.sourceUpdatedSince ?? null) : null,
      },
      { fetch: deps.fetch, sha256Hex: deps.sha256Hex, relay },
    );
  }
  if (origin.kind === 'congress') {
    return downloadCongress(
      origin,
      await readApiKey(store, 'congress'),
      imported ? (dataset.sourceUpdatedSince ?? null) : null,
      { fetch: deps.fetch, relay, progress },
    );
  }
  return downloadSource(
    {
      url: origin.url,
      etag: imported ? (dataset.sourceEtag ?? null) : null,
      lastModified: imported ? (dataset.sourceLastModified ?? null) : null,
    },
    { fetch: deps.fetch, sha256Hex: deps.sha256Hex, relay },
  );
}

/** A LegiScan dataset's download, against what this device kept of the last one and the key's
 *  monthly count of queries. */
async function loadLegiscanInput(
  deps: DatasetInputDeps,
  dataset: Dataset,
  origin: Extract<Dataset['origin'], { kind: 'legiscan' }>,
  how: {
    readonly imported: boolean;
    readonly relay: ((request: SourceRequest) => Promise<Response>) | null;
    readonly progress: Parameters<LoadInput>[1];
  },
): ReturnType<LoadInput> {
  const { store } = deps;
  const sourceHash = how.imported ? (dataset.sourceHash ?? null) : null;
  const kept = await store.read(['settings'], (tx) => readLegiscanKept(tx, dataset.id, sourceHash));
  const key = await readApiKey(store, 'legiscan');
  return downloadLegiscan(
    origin,
    key,
    { datasetHash: splitLegiscanSourceHash(sourceHash).datasetHash, kept },
    {
      fetch: deps.fetch,
      relay: how.relay,
      progress: how.progress,
      keep: (next) => saveLegiscanKept(store, dataset.id, kept?.token ?? null, next),
      ...(key === null ? {} : { queries: legiscanQueries(store, key, deps.now) }),
    },
  );
}
