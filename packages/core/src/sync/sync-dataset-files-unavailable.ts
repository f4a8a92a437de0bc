import type { Dataset } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { UnfetchedFile } from './sync-dataset-files.ts';

// Issue 37, "Nothing lost": a deleted dataset stays deleted, or comes back whole; no dataset
// waits for files that no device will send.
//
// A files dataset's definition can be on this device without its files: brought by sync, by a
// restore of a server backup (which holds definitions, not files), or by a merge of a copy of
// the user's work ("Bring back my changes"). Its files come only as blobs of the current key
// epoch that its definition lists. After each run's download, every files dataset that lacks a
// file here is looked at once more:
//
// - a missing file that the definition lists under no epoch: no device has sent it
//   (`not-sent`); listed only under older epochs: none has since the cloud password was reset
//   (`not-sent-since-reset`). The device that holds it sends it on its next sync (any file a
//   device holds without a blob of the current epoch is uploaded); none may hold it any more.
// - a missing file that is listed under the current epoch but could not be fetched this run
//   (`not-fetched`, with the file's name and why).
//
// Such a dataset is marked (`filesUnavailable`, a field of this device's own: never synced, never
// in a server backup), so Datasets says why and offers Remove and Import again instead of
// waiting for ever. The mark is worked out afresh after every run: once all the files are here
// (another device sent them, this run fetched them) it goes, and the dataset is asked to import
// (`needsImport`), so it comes back whole. A missing file listed under the current epoch whose
// fetch was not tried (none failed) leaves the dataset as it is: it is on its way.

type Mark = NonNullable<Dataset['filesUnavailable']>;

/** Why a dataset's missing files cannot come, or null when they may still come. */
export function unavailableFiles(
  dataset: Dataset,
  held: ReadonlySet<string>,
  epoch: number,
  unfetched: ReadonlyMap<string, UnfetchedFile>,
): Mark | null {
  if (dataset.origin.kind !== 'files') return null;
  const missing = [...new Set(dataset.origin.fileIds)].filter((id) => !held.has(id));
  if (missing.length === 0) return null;
  const blobs = dataset.blobs ?? [];
  let never = false;
  let sinceReset = false;
  let failed: UnfetchedFile | undefined;
  for (const fileId of missing) {
    const listed = blobs.filter((blob) => blob.fileId === fileId);
    if (listed.length === 0) never = true;
    else if (!listed.some((blob) => blob.epoch === epoch)) sinceReset = true;
    else failed ??= unfetched.get(fileId);
  }
  // That no device sent a file says more than a fetch that failed: it is said first.
  if (never) return { reason: 'not-sent', missing: missing.length };
  if (sinceReset) return { reason: 'not-sent-since-reset', missing: missing.length };
  if (failed === undefined) return null;
  return {
    reason: 'not-fetched',
    missing: missing.length,
    file: failed.name,
    problem: failed.reason,
  };
}

function sameMark(a: Mark | undefined, b: Mark | null): boolean {
  if (a === undefined || b === null) return a === undefined && b === null;
  return (
    a.reason === b.reason && a.missing === b.missing && a.file === b.file && a.problem === b.problem
  );
}

/**
 * After a run's download: marks the files datasets whose missing files cannot come, and clears
 * the mark (asking for the import) of those whose files are all here now. Answers how many
 * datasets are marked. Local fields only: nothing of this goes to the outbox.
 */
export async function markUnavailableDatasetFiles(
  store: LocalStore,
  input: { readonly epoch: number; readonly unfetched: readonly UnfetchedFile[] },
): Promise<number> {
  const unfetched = new Map(input.unfetched.map((file) => [file.fileId, file]));
  return store.write(['datasets', 'datasetFiles'], async (tx) => {
    const datasets = await tx.all('datasets');
    if (!datasets.some((row) => row.origin.kind === 'files' || row.filesUnavailable !== undefined))
      return 0;
    // Keys only: a file's row holds its bytes.
    const held = new Set(await tx.keys('datasetFiles'));
    let marked = 0;
    const changed: Dataset[] = [];
    for (const dataset of datasets) {
      const mark = unavailableFiles(dataset, held, input.epoch, unfetched);
      if (mark !== null) marked++;
      if (sameMark(dataset.filesUnavailable, mark)) continue;
      if (mark !== null) {
        changed.push({ ...dataset, filesUnavailable: mark });
        continue;
      }
      const next: Dataset = { ...dataset };
      delete next.filesUnavailable;
      // Its files are here now (or it reads a URL or an API): it comes back whole.
      changed.push({ ...next, needsImport: true });
    }
    if (changed.length > 0) await tx.putMany('datasets', changed);
    return marked;
  });
}
