import type { DatasetRemoval } from '@docket/core/import-jobs';
import type { Dataset, Job, JobStatus } from '@docket/core/store';
import { plural } from '../ui/formatting.ts';

// The words the datasets and jobs screens show for stored values, in one place so the two
// screens say the same thing.

const formatNames: Readonly<Record<string, string>> = {
  legiscan: 'LegiScan',
  openstates: 'Open States',
  billstatus: 'GovInfo BILLSTATUS XML',
  'congress-json': 'congress data.json',
  'docket-csv': 'Docket CSV',
  mixed: 'Several formats',
};

export function formatName(format: string | null): string {
  if (format === null) return 'Format not known yet';
  return formatNames[format] ?? format;
}

export const jobStatusWords: Readonly<Record<JobStatus, string>> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
  interrupted: 'Interrupted',
};

/** 0…1 when the job knows how far it is, null when it cannot tell. */
export function jobFraction(job: Job): number | null {
  if (job.status === 'done') return 1;
  const { total, recordsRead } = job.progress;
  if (total === null || total === 0) return null;
  return Math.min(1, recordsRead / total);
}

/**
 * Why a dataset's files never reached this device (sync's `filesUnavailable` mark), or null when
 * they may still come. Said instead of "Waiting for sync to bring its files", beside Remove and
 * Import again.
 */
export function filesUnavailableWords(dataset: Pick<Dataset, 'filesUnavailable'>): string | null {
  const mark = dataset.filesUnavailable;
  if (mark === undefined) return null;
  const never = 'Its files never reached this device';
  switch (mark.reason) {
    case 'not-sent':
      return `${never}: no device has sent them.`;
    case 'not-sent-since-reset':
      return `${never}: no device has sent them since the cloud password was reset.`;
    case 'not-fetched': {
      const file = mark.file === undefined ? 'a file' : mark.file;
      const why = mark.problem === undefined ? '' : ` (${mark.problem})`;
      return `${never}: ${file} could not be fetched${why}.`;
    }
  }
}

/** The dataset's state, told by its newest import job while that one is not done. */
export function datasetStateWords(dataset: Dataset, lastJob: Job | undefined): string {
  const busy = lastJob?.status === 'running' || lastJob?.status === 'queued';
  const unavailable = busy ? null : filesUnavailableWords(dataset);
  if (unavailable !== null) return unavailable;
  if (lastJob !== undefined && lastJob.status !== 'done') {
    switch (lastJob.status) {
      case 'running': {
        const fraction = jobFraction(lastJob);
        if (fraction !== null) return `Importing (${Math.round(fraction * 100)}%)`;
        // A long download says how far it is ("Reading bill 3 of 20", core's
        // import-jobs/dataset-import-progress.ts) until the records' counts take over.
        return lastJob.message?.startsWith('Reading bill ') === true
          ? `Importing: ${lastJob.message}`
          : 'Importing';
      }
      case 'queued':
        return 'Waiting to import';
      case 'interrupted':
        return 'Import interrupted';
      case 'failed':
        return 'Import failed';
      case 'cancelled':
        return dataset.lastImportAt === null ? 'Import cancelled' : 'Ready';
    }
  }
  // From another device: its files come with the next sync, then it imports here.
  if (dataset.needsImport === true) {
    return dataset.origin.kind === 'files'
      ? 'Waiting for sync to bring its files'
      : 'Waiting to import';
  }
  switch (dataset.state) {
    case 'new':
      return 'Not imported yet';
    case 'importing':
      return 'Importing';
    case 'ready':
      return 'Ready';
    case 'failed':
      return 'Import failed';
  }
}

/** The question before a dataset is deleted: what goes, what stays, what is kept. */
export function deletionQuestion(name: string, removal: DatasetRemoval): string {
  const going =
    removal.billsRemoved === 0
      ? `“${name}” goes from this device and your other devices; no bill goes with it.`
      : `“${name}” and its ${plural(removal.billsRemoved, 'bill')} go from this device and your other devices.`;
  const staying =
    removal.billsKept === 0
      ? ''
      : ` ${plural(removal.billsKept, 'bill')} another dataset also provides ${removal.billsKept === 1 ? 'stays' : 'stay'}.`;
  return `${going}${staying} Your tags, positions, decisions and notes on its bills are kept, and come back if you import the bills again.`;
}

/** Said once a dataset is deleted. */
export function deletionDone(removal: DatasetRemoval & { name: string }): string {
  return removal.billsRemoved === 0
    ? `Deleted “${removal.name}”.`
    : `Deleted “${removal.name}” and ${plural(removal.billsRemoved, 'bill')}.`;
}

/**
 * How a finished import's records add up: every record read became a bill, was merged into a
 * bill another record of the dataset also gave (a bill's data.json beside its BILLSTATUS XML),
 * or was skipped. Null when the job read nothing (a refresh whose source had not changed).
 */
export function recordTallyWords(job: Pick<Job, 'progress' | 'result'>): string | null {
  const { result, progress } = job;
  if (result === null || result.sourceUnchanged === true) return null;
  const bills = result.added + result.updated + result.unchanged;
  const merged = progress.written - bills;
  if (merged < 0) return null;
  const parts = [plural(bills, 'bill')];
  if (merged > 0) {
    parts.push(`${plural(merged, 'record')} merged into a bill another record also gave`);
  }
  parts.push(`${plural(progress.skipped, 'record')} skipped`);
  return `${plural(progress.written + progress.skipped, 'record')} read: ${parts.join(', ')}.`;
}

/**
 * What the last import or refresh came to, in words: what it found once done, or why it failed
 * (the job's closing message, such as a download refused and why); null while there is none.
 */
export function lastResultWords(lastJob: Job | undefined): string | null {
  if (lastJob?.status === 'failed') {
    const reason = lastJob.message ?? lastJob.errors[0]?.reason;
    return reason === undefined ? 'Failed.' : `Failed: ${reason}`;
  }
  if (lastJob?.status !== 'done' || lastJob.result === null) return null;
  const { result } = lastJob;
  if (result.sourceUnchanged === true) return 'No changes: the source has not changed.';
  if (result.added === 0 && result.updated === 0 && result.removed === 0) return 'No changes.';
  const changed = result.changed ?? 0;
  const parts = [`${result.added} added, ${result.updated} updated, ${result.removed} removed`];
  if (changed > 0) parts.push(`${plural(changed, 'bill')} with news`);
  return `${parts.join('; ')}.`;
}

/** Where a dataset's bills come from, in a few words (its row on Datasets). */
export function datasetSourceWords(dataset: Dataset): string {
  const origin = dataset.origin;
  switch (origin.kind) {
    case 'url':
      return origin.url;
    case 'legiscan':
      return `LegiScan API: ${origin.state}, session ${origin.sessionId}`;
    case 'openstates':
      return `Open States API: ${origin.jurisdiction}, session ${origin.session}`;
    case 'govinfo':
      return `GovInfo bulk data: ${origin.congress}th Congress, ${origin.billType.toUpperCase()}`;
    case 'congress':
      return `Congress.gov API: ${origin.congress}th Congress, ${origin.billType.toUpperCase()}`;
    case 'files':
      return plural(origin.fileIds.length, 'file');
  }
}

/**
 * What the Jobs screen says aloud when jobs it showed running end (issue 40: an import's "Done ·
 * 6 added" was only painted): one sentence a job, for those that were queued or running in
 * `before` and are done, failed or cancelled now; null when none ended.
 */
export function jobsEndedWords(
  before: ReadonlyMap<string, JobStatus>,
  jobs: readonly Job[],
  label: (job: Job) => string,
): string | null {
  const said: string[] = [];
  for (const job of jobs) {
    const was = before.get(job.id);
    if (was !== 'queued' && was !== 'running') continue;
    if (job.status === 'queued' || job.status === 'running') continue;
    const result =
      job.result === null
        ? ''
        : `: ${job.result.added.toLocaleString('en-US')} added, ${job.result.updated.toLocaleString('en-US')} updated, ${job.result.removed.toLocaleString('en-US')} removed`;
    const message = job.status === 'failed' && job.message !== null ? `: ${job.message}` : '';
    const sentence = `${label(job)}: ${jobStatusWords[job.status]}${result}${message}`;
    said.push(/[.!?]$/.test(sentence) ? sentence : `${sentence}.`);
  }
  return said.length === 0 ? null : said.join(' ');
}
