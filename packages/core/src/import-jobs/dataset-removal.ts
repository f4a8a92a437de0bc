import type { Dataset, StoredBill } from '../store/local-records.ts';
import { clearImportStaging } from './dataset-import-finish.ts';
import type { LocalReadTransaction, LocalWriteTransaction } from '../store/local-store.ts';

// A dataset leaving this device, deleted here or by sync from another device: what it brought
// goes with it. Its bills go unless another dataset also provides them (those stay, without it);
// its files go unless another dataset lists the same bytes; its jobs, their staging, the
// changes recorded by its imports, the text versions fetched for its bills, the members its roll
// calls named (unless another dataset's name them too) and the device's
// LegiScan refresh state for it (a `device:` setting) go. Rows keyed by bill id in the user's own
// tables (tags, positions, decisions, annotations) stay, so they come back with the bills if the
// user imports them again.

/**
 * The `device:` setting that keeps a dataset's LegiScan refresh state (sources/legiscan-refresh.ts).
 * Here, beside the removal that clears it, because sources/ is a layer above import-jobs/.
 */
export function legiscanRefreshSetting(datasetId: string): string {
  return `device:legiscan-bills:${datasetId}`;
}

/** Tables `removeDatasetHere` writes besides `datasets` (which its caller owns). */
export const DATASET_REMOVAL_TABLES = [
  'bills',
  'datasetFiles',
  'jobs',
  'importStaging',
  'billChanges',
  'versionTexts',
  'settings',
  'members',
] as const;

export interface DatasetRemoval {
  /** Bills that go, no other dataset providing them. */
  billsRemoved: number;
  /** Bills that stay, because another dataset provides them too. */
  billsKept: number;
}

const CHUNK = 1000;

/** What removing the dataset would take away, read without changing anything. */
export async function datasetRemovalPreview(
  tx: LocalReadTransaction,
  datasetId: string,
): Promise<DatasetRemoval> {
  const bills = await tx.where('bills', 'datasetIds', datasetId);
  const billsKept = bills.filter((bill) => bill.datasetIds.some((id) => id !== datasetId)).length;
  return { billsRemoved: bills.length - billsKept, billsKept };
}

/**
 * Takes away what `dataset` brought to this device (not the dataset's own row). In the caller's
 * transaction, so the dataset and what it brought go together or not at all.
 */
export async function removeDatasetHere(
  tx: LocalWriteTransaction,
  dataset: Pick<Dataset, 'id' | 'origin'>,
): Promise<DatasetRemoval> {
  const bills = await tx.where('bills', 'datasetIds', dataset.id);
  const keep: StoredBill[] = [];
  const drop: string[] = [];
  for (const bill of bills) {
    const others = bill.datasetIds.filter((id) => id !== dataset.id);
    if (others.length === 0) drop.push(bill.id);
    else keep.push({ ...bill, datasetIds: others });
  }
  for (let start = 0; start < keep.length; start += CHUNK) {
    await tx.putMany('bills', keep.slice(start, start + CHUNK));
  }
  for (let start = 0; start < drop.length; start += CHUNK) {
    await tx.deleteMany('bills', drop.slice(start, start + CHUNK));
  }

  // Text versions fetched for bills that go (keys `${billId}|${index}`; the table is small).
  const dropped = new Set(drop);
  const texts = (await tx.keys('versionTexts')).filter((key) =>
    dropped.has(key.slice(0, key.lastIndexOf('|'))),
  );
  if (texts.length > 0) await tx.deleteMany('versionTexts', texts);

  const changes = await tx.all('billChanges');
  const stale = changes.filter((change) => change.datasetId === dataset.id);
  if (stale.length > 0) {
    await tx.deleteMany(
      'billChanges',
      stale.map((change) => change.id),
    );
  }

  const jobs = await tx.where('jobs', 'subjectId', dataset.id);
  for (const job of jobs) await clearImportStaging(tx, job.id);
  if (jobs.length > 0) {
    await tx.deleteMany(
      'jobs',
      jobs.map((job) => job.id),
    );
  }

  const others = (await tx.all('datasets')).filter((row) => row.id !== dataset.id);
  const listedElsewhere = new Set(
    others.flatMap((row) => (row.origin.kind === 'files' ? row.origin.fileIds : [])),
  );
  const files = dataset.origin.kind === 'files' ? dataset.origin.fileIds : [];
  const unused = files.filter((id) => !listedElsewhere.has(id));
  if (unused.length > 0) await tx.deleteMany('datasetFiles', unused);

  // The members its roll calls named, unless another dataset's name them too.
  const members = await tx.where('members', 'datasetIds', dataset.id);
  const keptMembers = members
    .filter((member) => member.datasetIds.some((id) => id !== dataset.id))
    .map((member) => ({
      ...member,
      datasetIds: member.datasetIds.filter((id) => id !== dataset.id),
    }));
  const goneMembers = members
    .filter((member) => member.datasetIds.every((id) => id === dataset.id))
    .map((member) => member.id);
  if (keptMembers.length > 0) await tx.putMany('members', keptMembers);
  if (goneMembers.length > 0) await tx.deleteMany('members', goneMembers);

  // The change hashes a LegiScan refresh kept for the dataset's bills (never synced).
  await tx.delete('settings', legiscanRefreshSetting(dataset.id));

  return { billsRemoved: drop.length, billsKept: keep.length };
}
