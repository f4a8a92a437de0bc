import type { LocalStore } from '../store/local-store.ts';
import type { Job } from '../store/local-records.ts';

// After a refresh: the text versions it brought to bills the user tracks, which the app fetches
// at once (as "Get text" would), so an annotation made on the version before is drawn on the new
// one (placeOnOtherVersion) without anyone opening the bill. Bounded: tracked bills only, the
// versions the refresh's own change rows name, at most MAX_REFRESHED_VERSIONS of them.

export const MAX_REFRESHED_VERSIONS = 20;

export interface RefreshedVersion {
  billId: string;
  /** The bill's identifier, for a failure's words ("HB 5151"). */
  identifier: string;
  index: number;
  type: string;
  url: string;
  /** LegiScan's doc_id, for a version its API serves (getBillText). */
  docId?: number;
}

const TABLES = ['billChanges', 'decisions', 'bills', 'versionTexts'] as const;

/**
 * The new versions `job` (a finished import or refresh) brought to tracked bills that have a URL,
 * no text of their own and no copy fetched from that URL, in the change rows' order.
 */
export async function refreshedVersionsToFetch(
  store: LocalStore,
  job: Pick<Job, 'status' | 'subjectId' | 'finishedAt'>,
  limit = MAX_REFRESHED_VERSIONS,
): Promise<RefreshedVersion[]> {
  const at = job.finishedAt;
  if (job.status !== 'done' || at === null) return [];
  return store.read(TABLES, async (tx) => {
    const changes = (await tx.where('billChanges', 'at', at)).filter(
      (row) => row.datasetId === job.subjectId,
    );
    const found: RefreshedVersion[] = [];
    for (const change of changes) {
      if (found.length >= limit) break;
      const newTexts = change.changes.flatMap((item) =>
        item.kind === 'text' ? [`${item.date ?? ''}|${item.type}`] : [],
      );
      if (newTexts.length === 0) continue;
      if ((await tx.get('decisions', change.billId))?.decision !== 'track') continue;
      const bill = await tx.get('bills', change.billId);
      if (bill === undefined) continue;
      const fetched = new Map(
        (await tx.where('versionTexts', 'billId', bill.id)).map((row) => [row.index, row.url]),
      );
      bill.texts.forEach((version, index) => {
        const { url } = version;
        if (url === null || version.text !== null || found.length >= limit) return;
        if (!newTexts.includes(`${version.date ?? ''}|${version.type}`)) return;
        if (fetched.get(index) === url) return;
        found.push({
          billId: bill.id,
          identifier: bill.identifier,
          index,
          type: version.type,
          url,
          ...(version.docId === undefined ? {} : { docId: version.docId }),
        });
      });
    }
    return found;
  });
}

/** Runs `fetchOne` over `versions`, `concurrency` at a time; returns the failures with why. */
export async function fetchRefreshedVersions(
  versions: readonly RefreshedVersion[],
  fetchOne: (version: RefreshedVersion) => Promise<unknown>,
  concurrency = 3,
): Promise<{ version: RefreshedVersion; reason: string }[]> {
  const failures: { version: RefreshedVersion; reason: string }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < versions.length) {
      const version = versions[next++];
      if (version === undefined) break;
      try {
        await fetchOne(version);
      } catch (error) {
        failures.push({ version, reason: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, versions.length) }, worker));
  return failures;
}

/** Adds the failures to the job's list of errors (the jobs screen shows them); the job stays
 *  done: a text not fetched takes nothing from the bills the refresh brought. */
export async function recordRefreshedTextFailures(
  store: LocalStore,
  jobId: string,
  failures: readonly { version: RefreshedVersion; reason: string }[],
): Promise<void> {
  if (failures.length === 0) return;
  await store.write(['jobs'], async (tx) => {
    const job = await tx.get('jobs', jobId);
    if (job === undefined) return;
    const errors = failures.map(({ version, reason }) => ({
      record: version.identifier,
      reason: `The text of "${version.type}" was not fetched: ${reason}`,
    }));
    await tx.put('jobs', { ...job, errors: [...job.errors, ...errors].slice(0, 200) });
  });
}
