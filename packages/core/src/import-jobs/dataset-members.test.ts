import { describe, expect, it } from 'vitest';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import {
  allRows,
  queueFilesImport,
  runStoredImport,
  testClock,
} from '../test-support/dataset-import-harness.ts';
import { readSamples } from '../test-support/test-files.ts';
import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';
import type { ImportFile } from '../importers/bill-import-record.ts';
import { DATASET_REMOVAL_TABLES, removeDatasetHere } from './dataset-removal.ts';
import type { LocalStore } from '../store/local-store.ts';

// The member directory an import fills (issue 41): who voted is kept once, with the datasets that
// named them, and goes with the last of those datasets; the bill keeps only [key, vote] pairs.

const WA = 'legiscan/dataset/WA/2023-2024_Regular_Session';

async function importInto(
  store: LocalStore,
  datasetId: string,
  now: () => string,
  files: readonly ImportFile[] = readSamples(WA),
  jobId = `job-${datasetId}`,
) {
  const queued = await queueFilesImport(store, {
    datasetId,
    jobId,
    files,
    now: now(),
  });
  const job = await runStoredImport(store, queued, now, { chunkSize: 1 });
  expect(job.status).toBe('done');
  return job;
}

/** The dataset's files with each roll call's member list taken out: totals only, as getBill. */
function totalsOnly(files: readonly ImportFile[]): ImportFile[] {
  return files.map((file) => {
    if (!file.name.includes('/vote/')) return file;
    const answer = JSON.parse(decodeUtf8(file.bytes)) as { roll_call: Record<string, unknown> };
    answer.roll_call.votes = [];
    return { name: file.name, bytes: encodeUtf8(JSON.stringify(answer)) };
  });
}

async function removeDataset(store: LocalStore, datasetId: string): Promise<void> {
  await store.write(['datasets', ...DATASET_REMOVAL_TABLES], async (tx) => {
    const dataset = await tx.get('datasets', datasetId);
    if (dataset === undefined) throw new Error(`no dataset ${datasetId}`);
    await removeDatasetHere(tx, dataset);
    await tx.delete('datasets', datasetId);
  });
}

describe('the member directory of an import', () => {
  it('keeps each member once with the datasets naming them, and lets go with the last', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    await importInto(store, 'd1', now);

    const bills = await allRows(store, 'bills');
    const voted = bills.flatMap((bill) => bill.votes).filter((vote) => vote.members !== undefined);
    expect(voted.length).toBeGreaterThan(0);
    const keys = new Set(voted.flatMap((vote) => (vote.members ?? []).map(([key]) => key)));
    const members = await allRows(store, 'members');
    // Everyone the people files describe who is on a roll, once (chunks of one bill each).
    expect(members.map((member) => member.id).sort()).toEqual(
      [...keys].filter((key) => members.some((member) => member.id === key)).sort(),
    );
    const ostrowski = members.find((member) => member.id === 'legiscan:503');
    expect(ostrowski).toEqual({
      id: 'legiscan:503',
      name: 'Carmen Ostrowski',
      party: 'D',
      district: 'HD-021',
      role: 'Rep',
      datasetIds: ['d1'],
    });

    await importInto(store, 'd2', now);
    expect((await allRows(store, 'members')).every((m) => m.datasetIds.join() === 'd1,d2')).toBe(
      true,
    );

    await removeDataset(store, 'd1');
    const left = await allRows(store, 'members');
    expect(left).toHaveLength(members.length);
    expect(left.every((member) => member.datasetIds.join() === 'd2')).toBe(true);

    await removeDataset(store, 'd2');
    expect(await allRows(store, 'members')).toEqual([]);
  });

  it('keeps who voted how when the source gives the same roll call as totals only', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    await importInto(store, 'd1', now);
    const before = await allRows(store, 'bills');
    expect(before.some((bill) => bill.votes.some((vote) => vote.members !== undefined))).toBe(true);

    const again = await importInto(store, 'd1', now, totalsOnly(readSamples(WA)), 'job-again');
    expect(again.result).toMatchObject({ updated: 0, unchanged: before.length });
    expect(await allRows(store, 'bills')).toEqual(before);
  });
});
