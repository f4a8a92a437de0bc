import { z } from 'zod';
import { contentHash } from '../bills/canonical-hash.ts';
import { field, jsonOrUndefined } from '../encoding/loose-json.ts';
import { planArchives } from '../encoding/zip-archive.ts';
import { legiscanRefreshSetting } from '../import-jobs/dataset-removal.ts';
import type { ImportFile } from '../importers/bill-import-record.ts';
import type { LocalReadTransaction, LocalStore } from '../store/local-store.ts';
import { legiscanBillFacts, type LegiscanMasterListEntry } from './legiscan-bill-api.ts';

// What a LegiScan API dataset's refresh keeps on this device to read only the bills that changed:
// each bill's change_hash as the bills here were last read, the votes (roll_call_id) and the
// legislators (people_id) already known. It is kept per dataset in a `device:` setting (never
// synced: each device reads its own bills from LegiScan; `legiscanRefreshSetting` names it, in
// import-jobs/dataset-removal.ts, which clears it with the dataset), and is trusted only when the
// dataset's kept source hash names it: the import that read those bills finished here. The source
// hash is "<dataset_hash>|<token>", so a download whose import then fails or is cancelled leaves
// the dataset naming the state before it, which is kept beside the new one until the next download.
//
// Which way a refresh reads (legiscanRefreshWay, takeLegiscanDataset), counted in LegiScan queries,
// the unit of its monthly quota:
// - getMasterListRaw first, one query: the bills whose change_hash differs from the kept one, or
//   that are new, are the changed ones. None: "No changes", after that one query.
// - Reading them costs at least one getBill each (and a getRollCall per new vote, a getPerson per
//   sponsor or voter not known). The whole dataset costs LEGISCAN_DATASET_QUERIES,
//   getDatasetList and getDataset, whatever its size. So fewer changed bills than that: read per bill, without asking
//   for the list.
// - Otherwise getDatasetList says whether the dataset can help: LegiScan rebuilds it weekly, so it
//   is taken only when its dataset_hash is not the one read here and it was built after the last
//   per-bill read (an older build would take back what those reads brought). Else the changed
//   bills are read one by one after all.
// After the dataset, a bill that changed after its build differs from the master list at the next
// refresh, and is read then.

export const LEGISCAN_DATASET_QUERIES = 2;

const keptSchema = z.object({
  token: z.string().min(1).max(40),
  datasetHash: z.string().min(1).max(200),
  /** The build date (dataset_date) of the dataset read last, when LegiScan gave one. */
  datasetDate: z.string().max(40).nullable(),
  /** When bills were last read one by one (an ISO time), null when never since the dataset. */
  perBillAt: z.string().max(40).nullable(),
  /** bill_id → change_hash. */
  bills: z.record(z.string(), z.string()),
  rollCalls: z.array(z.number().int()),
  people: z.array(z.number().int()),
});
export type LegiscanKept = z.infer<typeof keptSchema>;
type KeptContent = Omit<LegiscanKept, 'token'>;

const storedSchema = z.object({ entries: z.array(keptSchema).max(2) });

/** The dataset's kept source hash for a dataset_hash and a kept state's token. */
export function legiscanSourceHash(kept: LegiscanKept): string {
  return `${kept.datasetHash}|${kept.token}`;
}

/** The dataset_hash and the token a kept source hash names (an older one names no token). */
export function splitLegiscanSourceHash(sourceHash: string | null): {
  datasetHash: string | null;
  token: string | null;
} {
  if (sourceHash === null) return { datasetHash: null, token: null };
  const at = sourceHash.lastIndexOf('|');
  if (at < 0) return { datasetHash: sourceHash, token: null };
  return { datasetHash: sourceHash.slice(0, at), token: sourceHash.slice(at + 1) };
}

function storedEntries(value: unknown): LegiscanKept[] {
  const parsed = storedSchema.safeParse(value);
  return parsed.success ? parsed.data.entries : [];
}

/** The kept state the dataset's source hash names, or null when there is none to trust. */
export async function readLegiscanKept(
  tx: LocalReadTransaction,
  datasetId: string,
  sourceHash: string | null,
): Promise<LegiscanKept | null> {
  const { token } = splitLegiscanSourceHash(sourceHash);
  if (token === null) return null;
  const row = await tx.get('settings', legiscanRefreshSetting(datasetId));
  return storedEntries(row?.value).find((entry) => entry.token === token) ?? null;
}

/** A kept state with its token: the hash of its content, so the same content names itself. */
export function legiscanKept(content: KeptContent): LegiscanKept {
  return { ...content, token: contentHash(content) };
}

/**
 * Keeps `next` beside the state the dataset names now (`current`'s token), which stays trusted
 * until an import of `next` finishes.
 */
export async function saveLegiscanKept(
  store: LocalStore,
  datasetId: string,
  currentToken: string | null,
  next: LegiscanKept,
): Promise<void> {
  const key = legiscanRefreshSetting(datasetId);
  await store.write(['settings'], async (tx) => {
    const entries = storedEntries((await tx.get('settings', key))?.value);
    const current = entries.find(
      (entry) => entry.token === currentToken && entry.token !== next.token,
    );
    await tx.put('settings', {
      key,
      value: { entries: current === undefined ? [next] : [current, next] },
    });
  });
}

/** The bills of the master list that are new or whose change_hash is not the kept one. */
export function legiscanChangedBills(
  kept: Pick<LegiscanKept, 'bills'>,
  masterList: readonly LegiscanMasterListEntry[],
): LegiscanMasterListEntry[] {
  return masterList.filter((entry) => kept.bills[String(entry.bill_id)] !== entry.change_hash);
}

/** 'per-bill' when reading the changed bills costs fewer queries than the dataset would;
 *  'ask-list' when getDatasetList must say whether the dataset is worth its queries. */
export function legiscanRefreshWay(changedBills: number): 'per-bill' | 'ask-list' {
  return changedBills < LEGISCAN_DATASET_QUERIES ? 'per-bill' : 'ask-list';
}

/** Whether the dataset the list names is worth reading instead of the changed bills. */
export function takeLegiscanDataset(
  entry: { dataset_hash: string; dataset_date?: string | undefined },
  kept: Pick<LegiscanKept, 'datasetHash' | 'perBillAt'>,
): boolean {
  if (entry.dataset_hash === kept.datasetHash) return false;
  if (kept.perBillAt === null) return true;
  // A build on the day of the last per-bill read may be older than it: not taken.
  return entry.dataset_date !== undefined && entry.dataset_date > kept.perBillAt.slice(0, 10);
}

/**
 * The state a dataset ZIP gives: each bill file's change_hash, the votes and sponsors its bills
 * name and the vote and people files it holds. The ZIP is opened as the import opens it
 * (planArchives refuses one past the limits), one file at a time.
 */
export function legiscanKeptOfDataset(
  zip: ImportFile,
  dataset: { hash: string; date: string | null },
): LegiscanKept {
  const bills: Record<string, string> = {};
  const rollCalls = new Set<number>();
  const people = new Set<number>();
  const idOf = (name: string, folder: string): number | null => {
    const match = new RegExp(`(?:^|/)${folder}/([1-9][0-9]{0,14})\\.json$`).exec(name);
    return match?.[1] === undefined ? null : Number(match[1]);
  };
  for (const pending of planArchives([zip]).files) {
    const vote = idOf(pending.name, 'vote');
    if (vote !== null) rollCalls.add(vote);
    const person = idOf(pending.name, 'people');
    if (person !== null) people.add(person);
    // Bills are told by what they hold, as the importer tells them (a bill picked by itself, a
    // getBill answer, sits in no bill/ folder); the side folders are not opened.
    if (!/\.json$/i.test(pending.name) || /(?:^|\/)(?:vote|people|text)\//.test(pending.name)) {
      continue;
    }
    const read = pending.read();
    if (!read.ok) continue;
    // Not parseJsonBytes: its cache is the importer's, and these bytes are inflated afresh.
    const facts = legiscanBillFacts(field(jsonOrUndefined(read.file.bytes), 'bill'));
    if (facts === null) continue;
    bills[String(facts.billId)] = facts.changeHash;
    for (const id of facts.rollCallIds) rollCalls.add(id);
    for (const id of facts.peopleIds) people.add(id);
  }
  return legiscanKept({
    datasetHash: dataset.hash,
    datasetDate: dataset.date,
    perBillAt: null,
    bills,
    rollCalls: [...rollCalls].sort((a, b) => a - b),
    people: [...people].sort((a, b) => a - b),
  });
}

/** The state after reading some bills one by one: theirs replaced, their votes and people known. */
export function legiscanKeptAfterBills(
  kept: LegiscanKept,
  read: readonly { billId: number; changeHash: string }[],
  rollCalls: Iterable<number>,
  people: Iterable<number>,
  at: string,
): LegiscanKept {
  const bills = { ...kept.bills };
  for (const bill of read) bills[String(bill.billId)] = bill.changeHash;
  return legiscanKept({
    datasetHash: kept.datasetHash,
    datasetDate: kept.datasetDate,
    perBillAt: at,
    bills,
    rollCalls: [...new Set([...kept.rollCalls, ...rollCalls])].sort((a, b) => a - b),
    people: [...new Set([...kept.people, ...people])].sort((a, b) => a - b),
  });
}
