import { normalizeJurisdiction } from '../bills/bill-identifiers.ts';
import { emptyProgress, replaceWaitingImports } from '../import-jobs/dataset-import-job.ts';
import { discardImport } from '../import-jobs/dataset-import-journal.ts';
import type { DatasetRemoval } from '../import-jobs/dataset-removal.ts';
import {
  DATASET_REMOVAL_TABLES,
  datasetRemovalPreview,
  removeDatasetHere,
} from '../import-jobs/dataset-removal.ts';
import type { ImportInput } from '../import-jobs/dataset-import-job.ts';
import type { Dataset, DatasetFile, Job } from '../store/local-records.ts';
import type { LocalStore, LocalWriteTransaction } from '../store/local-store.ts';
import { OutboxWriter, outboxTables } from '../merge/outbox-changes.ts';

// The named commands behind the datasets and jobs screens. Each is one transaction, so what a
// screen asks for happens whole or not at all; the import itself runs in runImportJob.

export const DATASET_NAME_MAX = 200;
export const DATASET_SESSION_MAX = 100;
/** Files of one dataset at most (the synced definition lists them all). */
export const DATASET_FILES_MAX = 10_000;

/** What the add-dataset form holds, as typed. */
export interface DatasetFormValues {
  name: string;
  /** The bills come from an API, whose fields sources/api-source-form.ts checks: the files and
   *  the URL are not read. */
  fromApi?: boolean;
  url: string;
  jurisdiction: string;
  session: string;
  /** Files picked in this visit of the form. */
  pickedFileCount: number;
  /** Files the dataset already keeps (editing a dataset made from files). */
  storedFileCount: number;
}

export type DatasetFormField = 'name' | 'source' | 'url' | 'jurisdiction' | 'session';
export type DatasetFormErrors = Partial<Record<DatasetFormField, string>>;

/** An http(s) address with a host; core has no URL class, and nothing else may be fetched. */
export function isHttpUrl(value: string): boolean {
  return /^https?:\/\/[^\s/?#@:]+(:\d{1,5})?([/?#]\S*)?$/i.test(value);
}

/** The form's messages, by field; an empty object means the form can be imported. */
export function validateDatasetForm(values: DatasetFormValues): DatasetFormErrors {
  const errors: DatasetFormErrors = {};
  const name = values.name.trim();
  const url = values.url.trim();
  if (name === '') errors.name = 'Enter a name for the dataset.';
  else if (name.length > DATASET_NAME_MAX)
    errors.name = `The name is too long: ${DATASET_NAME_MAX} characters at most.`;
  if (values.fromApi === true) {
    // The files and the URL are not read; the API's fields say where the bills come from.
  } else if (url !== '' && !isHttpUrl(url)) {
    errors.url = 'The URL must be a web address starting with http:// or https://.';
  }
  if (values.fromApi === true) {
    // As above.
  } else if (url !== '' && values.pickedFileCount > 0) {
    errors.source = 'Choose files or a URL, not both.';
  } else if (url === '' && values.pickedFileCount === 0 && values.storedFileCount === 0) {
    errors.source = 'Choose files or a folder, or enter a URL.';
  }
  const jurisdiction = values.jurisdiction.trim();
  if (jurisdiction !== '' && normalizeJurisdiction(jurisdiction) === null) {
    errors.jurisdiction =
      'Not a jurisdiction Docket knows: use "us", a state code such as "CA" or "us-ca", or a state name.';
  }
  if (values.session.trim().length > DATASET_SESSION_MAX) {
    errors.session = `The session is too long: ${DATASET_SESSION_MAX} characters at most.`;
  }
  return errors;
}

/** A file picked for a dataset, already given its content address by the caller. */
export interface PickedDatasetFile {
  /** SHA-256 of the bytes, hex. */
  id: string;
  name: string;
  bytes: Uint8Array<ArrayBuffer>;
}

export type DatasetSource =
  | { kind: 'files'; files: readonly PickedDatasetFile[] }
  | { kind: 'url'; url: string }
  | { kind: 'legiscan'; state: string; sessionId: number }
  | { kind: 'openstates'; jurisdiction: string; session: string }
  /** GovInfo's bulk data, or the congress.gov API: a Congress and a bill type. */
  | { kind: 'govinfo'; congress: number; billType: string }
  | { kind: 'congress'; congress: number; billType: string }
  /** Editing a dataset and importing it again from what it already has. */
  | { kind: 'unchanged' };

export interface SaveDatasetInput {
  datasetId: string;
  name: string;
  jurisdiction: string | null;
  session: string | null;
  source: DatasetSource;
  /** The id of the import job to queue. */
  jobId: string;
  now: string;
  /** This device, the author of the definition's sync change. */
  deviceId: string;
}

/** A command refused for a reason the user can act on; the message is shown as is. */
export class DatasetCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatasetCommandError';
  }
}

function newJob(id: string, datasetId: string, at: string): Job {
  return { id, kind: 'import', subjectId: datasetId, createdAt: at, ...notStarted() };
}

/** What a job is before it first runs, and again when it is retried from the start. */
function notStarted(): Pick<
  Job,
  'status' | 'startedAt' | 'finishedAt' | 'progress' | 'result' | 'errors' | 'message'
> {
  return {
    status: 'queued',
    startedAt: null,
    finishedAt: null,
    progress: { ...emptyProgress },
    result: null,
    errors: [],
    message: null,
  };
}

function blank(value: string | null): string | null {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
}

/**
 * Saves a dataset (new or edited), its picked files (content-addressed, so a file shared by two
 * datasets is kept once) and a queued import job, in one transaction: once this returns, a
 * reload finds everything the import needs. An older job of the dataset that is waiting or was
 * interrupted is replaced; a running one makes the command refuse.
 */
export async function saveDatasetAndQueueImport(
  store: LocalStore,
  input: SaveDatasetInput,
): Promise<{ dataset: Dataset; job: Job }> {
  const { name, jurisdiction } = checkSaveDatasetInput(input);

  const tables = [
    'bills',
    'datasets',
    'datasetFiles',
    'jobs',
    'importStaging',
    ...outboxTables,
  ] as const;
  return store.write(tables, async (tx) => {
    const existing = await tx.get('datasets', input.datasetId);
    const jobs = await tx.where('jobs', 'subjectId', input.datasetId);
    if (jobs.some((job) => job.status === 'running')) {
      throw new DatasetCommandError(
        'An import of this dataset is running. Cancel it or wait for it to finish.',
      );
    }
    await replaceWaitingImports(tx, jobs, input.now);

    const origin = await savedOrigin(tx, input, existing);
    await deleteUnusedFiles(tx, input.datasetId, existing, origin);
    const dataset = await savedDefinition(tx, input, existing, { name, jurisdiction, origin });
    const job = newJob(input.jobId, input.datasetId, input.now);
    const outbox = await OutboxWriter.open(tx, input.deviceId, Date.parse(input.now));
    await outbox.put('datasets', {
      row: dataset,
      ...(existing === undefined ? {} : { changed: changedDefinition(existing, dataset) }),
    });
    await outbox.close();
    await tx.put('jobs', job);
    return { dataset, job };
  });
}

/**
 * The dataset's name and jurisdiction as saved, or the refusal of an input the form should have
 * caught (saveDatasetAndQueueImport checks it before opening its transaction).
 */
function checkSaveDatasetInput(input: SaveDatasetInput): {
  name: string;
  jurisdiction: string | null;
} {
  const name = input.name.trim();
  if (name === '' || name.length > DATASET_NAME_MAX) {
    throw new DatasetCommandError('Enter a name for the dataset.');
  }
  const rawJurisdiction = blank(input.jurisdiction);
  const jurisdiction = rawJurisdiction === null ? null : normalizeJurisdiction(rawJurisdiction);
  if (rawJurisdiction !== null && jurisdiction === null) {
    throw new DatasetCommandError(`Not a jurisdiction Docket knows: ${rawJurisdiction}`);
  }
  checkDatasetSource(input.source);
  return { name, jurisdiction };
}

/** Refuses a source that says nowhere the bills could come from. */
function checkDatasetSource(source: DatasetSource): void {
  if (source.kind === 'url' && !isHttpUrl(source.url.trim())) {
    throw new DatasetCommandError('The URL must start with http:// or https://.');
  }
  // An API's fields are checked by the form (sources/api-source-form.ts) and again by the row's
  // schema when it is stored; a blank one is refused here in a word.
  if (
    (source.kind === 'legiscan' && (!/^[A-Z]{2}$/.test(source.state) || source.sessionId <= 0)) ||
    (source.kind === 'openstates' &&
      (source.jurisdiction.trim() === '' || source.session.trim() === '')) ||
    ((source.kind === 'govinfo' || source.kind === 'congress') &&
      (source.congress < 93 || !/^[a-z]{1,7}$/.test(source.billType)))
  ) {
    throw new DatasetCommandError('Enter where the dataset comes from.');
  }
  if (source.kind === 'files' && source.files.length === 0) {
    throw new DatasetCommandError('Choose files or a folder, or enter a URL.');
  }
  if (source.kind === 'files' && source.files.length > DATASET_FILES_MAX) {
    throw new DatasetCommandError(
      `A dataset holds at most ${DATASET_FILES_MAX.toLocaleString('en-US')} files; these are ${source.files.length.toLocaleString('en-US')}. Put them in a ZIP, or split them into several datasets.`,
    );
  }
}

/** Where the saved dataset's bills come from; picked files are stored on the way. */
async function savedOrigin(
  tx: LocalWriteTransaction,
  input: SaveDatasetInput,
  existing: Dataset | undefined,
): Promise<Dataset['origin']> {
  const source = input.source;
  if (source.kind === 'unchanged') {
    if (!existing) throw new DatasetCommandError('Choose files or a folder, or enter a URL.');
    return existing.origin;
  } else if (source.kind === 'url') {
    return { kind: 'url', url: source.url.trim() };
  } else if (source.kind === 'legiscan') {
    return { kind: 'legiscan', state: source.state, sessionId: source.sessionId };
  } else if (source.kind === 'govinfo' || source.kind === 'congress') {
    return { kind: source.kind, congress: source.congress, billType: source.billType };
  } else if (source.kind === 'openstates') {
    return {
      kind: 'openstates',
      jurisdiction: source.jurisdiction.trim(),
      session: source.session.trim(),
    };
  } else {
    const fileIds = await storePickedFiles(tx, input, source.files);
    return { kind: 'files', fileIds };
  }
}

/** Stores the picked files the device does not hold yet; gives their ids, each once, in order. */
async function storePickedFiles(
  tx: LocalWriteTransaction,
  input: SaveDatasetInput,
  files: readonly PickedDatasetFile[],
): Promise<string[]> {
  const fileIds: string[] = [];
  const stored = await tx.getMany(
    'datasetFiles',
    files.map((file) => file.id),
  );
  const rows: DatasetFile[] = [];
  files.forEach((file, index) => {
    if (fileIds.includes(file.id)) return;
    fileIds.push(file.id);
    if (stored[index] !== undefined) return;
    rows.push({
      id: file.id,
      datasetId: input.datasetId,
      name: file.name,
      size: file.bytes.length,
      bytes: file.bytes,
      addedAt: input.now,
    });
  });
  if (rows.length > 0) await tx.putMany('datasetFiles', rows);
  return fileIds;
}

/** Files the dataset no longer uses go, unless another dataset holds the same bytes. */
async function deleteUnusedFiles(
  tx: LocalWriteTransaction,
  datasetId: string,
  existing: Dataset | undefined,
  origin: Dataset['origin'],
): Promise<void> {
  if (existing?.origin.kind === 'files') {
    const kept = new Set(origin.kind === 'files' ? origin.fileIds : []);
    const others = (await tx.all('datasets')).filter((d) => d.id !== datasetId);
    const usedElsewhere = new Set(
      others.flatMap((d) => (d.origin.kind === 'files' ? d.origin.fileIds : [])),
    );
    const unused = existing.origin.fileIds.filter((id) => !kept.has(id) && !usedElsewhere.has(id));
    if (unused.length > 0) await tx.deleteMany('datasetFiles', unused);
  }
}

/** The dataset's row as saved: the form's fields, what the device knew of it kept. */
async function savedDefinition(
  tx: LocalWriteTransaction,
  input: SaveDatasetInput,
  existing: Dataset | undefined,
  fields: Pick<Dataset, 'name' | 'jurisdiction' | 'origin'>,
): Promise<Dataset> {
  const { name, jurisdiction, origin } = fields;
  const fileIds = new Set(origin.kind === 'files' ? origin.fileIds : []);
  const blobs = existing?.blobs?.filter((blob) => fileIds.has(blob.fileId));
  // A files dataset that sync brought may not have its files here yet (an edit made while
  // they download): the job queued here cannot read them, so the mark stays for sync's import.
  const held = fileIds.size === 0 ? fileIds : new Set(await tx.keys('datasetFiles'));
  const filesMissing = [...fileIds].some((id) => !held.has(id));
  return {
    id: input.datasetId,
    name,
    origin,
    jurisdiction,
    session: blank(input.session),
    format: existing?.format ?? null,
    billCount: existing?.billCount ?? 0,
    lastImportAt: existing?.lastImportAt ?? null,
    lastJobId: input.jobId,
    state: existing?.state === 'importing' ? 'ready' : (existing?.state ?? 'new'),
    createdAt: existing?.createdAt ?? input.now,
    updatedAt: input.now,
    ...(blobs === undefined ? {} : { blobs }),
    // The job queued here imports what sync may have asked for, once it has the files.
    needsImport: filesMissing,
  };
}

/**
 * Queues the import of a dataset that sync brought or changed (`needsImport`), once this device
 * has every file it reads: the bills are rebuilt here from the same files. Nothing is queued
 * (null) while files are missing or an import of it runs; a later call tries again.
 */
export async function queueSyncedImport(
  store: LocalStore,
  input: { datasetId: string; jobId: string; now: string },
): Promise<Job | null> {
  return store.write(['bills', 'datasets', 'datasetFiles', 'jobs', 'importStaging'], async (tx) => {
    const dataset = await tx.get('datasets', input.datasetId);
    if (dataset?.needsImport !== true) return null;
    // Keys only: a file's row holds its bytes.
    const held = await tx.keys('datasetFiles');
    const present = new Set(held);
    if (dataset.origin.kind === 'files' && dataset.origin.fileIds.some((id) => !present.has(id))) {
      return null;
    }
    const jobs = await tx.where('jobs', 'subjectId', input.datasetId);
    if (jobs.some((job) => job.status === 'running')) return null;
    // Files no definition lists any more (another device gave a dataset other files) go, as a
    // local edit's do in saveDatasetAndQueueImport.
    const listed = new Set(
      (await tx.all('datasets')).flatMap((row) =>
        row.origin.kind === 'files' ? row.origin.fileIds : [],
      ),
    );
    const unlisted = held.filter((id) => !listed.has(id));
    if (unlisted.length > 0) await tx.deleteMany('datasetFiles', unlisted);
    await replaceWaitingImports(tx, jobs, input.now);
    const job: Job = { ...newJob(input.jobId, input.datasetId, input.now), queuedBy: 'sync' };
    // Local fields only: nothing of this goes to the other devices. The definition may name
    // another URL now, so this import downloads it whole (no validators of the old one).
    const next: Dataset = { ...dataset, needsImport: false, lastJobId: job.id };
    delete next.sourceEtag;
    delete next.sourceLastModified;
    delete next.sourceHash;
    delete next.sourceUpdatedSince;
    await tx.put('datasets', next);
    await tx.put('jobs', job);
    return job;
  });
}

/** Whether a dataset can refresh itself: one from a URL or an API, not from picked files. */
export function refreshable(dataset: Dataset): boolean {
  return dataset.origin.kind !== 'files';
}

/**
 * Queues a refresh of a dataset from a URL or an API: an import job like any other, whose
 * download sends the validators kept from the last one (a 304, or the same dataset hash, ends it
 * "No changes"). Refused, saying why, for a dataset of picked files or one whose import is
 * running; a waiting or cut-off import of it is replaced.
 */
export async function queueRefresh(
  store: LocalStore,
  input: { datasetId: string; jobId: string; now: string },
): Promise<Job> {
  return store.write(['bills', 'datasets', 'jobs', 'importStaging'], async (tx) => {
    const dataset = await tx.get('datasets', input.datasetId);
    if (!dataset) throw new DatasetCommandError('This dataset is no longer on this device.');
    if (!refreshable(dataset)) {
      throw new DatasetCommandError(
        `"${dataset.name}" is made of picked files, which cannot refresh themselves; edit it to pick newer files.`,
      );
    }
    const jobs = await tx.where('jobs', 'subjectId', input.datasetId);
    if (jobs.some((job) => job.status === 'running')) {
      throw new DatasetCommandError(`"${dataset.name}" is being imported already.`);
    }
    await replaceWaitingImports(tx, jobs, input.now);
    const job = newJob(input.jobId, input.datasetId, input.now);
    await tx.put('datasets', { ...dataset, lastJobId: job.id });
    await tx.put('jobs', job);
    return job;
  });
}

/** What deleting a dataset would take away: the confirmation says it before anything goes. */
export async function previewDatasetDeletion(
  store: LocalStore,
  datasetId: string,
): Promise<DatasetRemoval> {
  return store.read(['bills'], (tx) => datasetRemovalPreview(tx, datasetId));
}

/**
 * Deletes a dataset on every device: here, with what it brought (dataset-removal.ts), in one
 * transaction, and a delete of its definition through the outbox, so sync takes it to the
 * user's other devices, which remove what it brought there. Refused while its import runs.
 */
export async function deleteDataset(
  store: LocalStore,
  input: { datasetId: string; deviceId: string; now: string },
): Promise<DatasetRemoval & { name: string }> {
  const tables = ['datasets', ...DATASET_REMOVAL_TABLES, ...outboxTables] as const;
  return store.write(tables, async (tx) => {
    const dataset = await tx.get('datasets', input.datasetId);
    if (!dataset) throw new DatasetCommandError('This dataset is no longer on this device.');
    const jobs = await tx.where('jobs', 'subjectId', input.datasetId);
    if (jobs.some((job) => job.status === 'running')) {
      throw new DatasetCommandError(
        `"${dataset.name}" is being imported. Cancel the import or wait for it to finish, then delete the dataset.`,
      );
    }
    const removal = await removeDatasetHere(tx, dataset);
    const outbox = await OutboxWriter.open(tx, input.deviceId, Date.parse(input.now));
    await outbox.delete('datasets', dataset.id);
    await outbox.close();
    return { ...removal, name: dataset.name };
  });
}

/**
 * The ids of the datasets sync marked for import on this device, and of those whose import sync
 * queued is not finished (the import worker, started, finds which were cut off by a reload:
 * markInterruptedJobs marks them again).
 */
export async function datasetsNeedingImport(store: LocalStore): Promise<string[]> {
  return store.read(['datasets', 'jobs'], async (tx) => {
    const unfinished = new Set<string>();
    for (const status of ['queued', 'running', 'interrupted'] as const) {
      for (const job of await tx.where('jobs', 'status', status)) {
        if (job.queuedBy === 'sync') unfinished.add(job.id);
      }
    }
    return (await tx.all('datasets'))
      .filter(
        (dataset) =>
          dataset.needsImport === true ||
          (dataset.lastJobId !== null && unfinished.has(dataset.lastJobId)),
      )
      .map((dataset) => dataset.id);
  });
}

/** The synced fields of an edited dataset that the edit changed (updatedAt always). */
function changedDefinition(before: Dataset, after: Dataset): (keyof Dataset)[] {
  const names: (keyof Dataset)[] = ['updatedAt'];
  if (before.name !== after.name) names.push('name');
  if (JSON.stringify(before.origin) !== JSON.stringify(after.origin)) names.push('origin');
  if (before.jurisdiction !== after.jurisdiction) names.push('jurisdiction');
  if (before.session !== after.session) names.push('session');
  if (JSON.stringify(before.blobs) !== JSON.stringify(after.blobs)) names.push('blobs');
  return names;
}

/**
 * Reads a files dataset's files back from the store, in the order they were picked. The
 * fingerprint is the list of content addresses, so a resume notices any change of files.
 */
export async function loadStoredDatasetFiles(
  store: LocalStore,
  dataset: Dataset,
): Promise<ImportInput> {
  if (dataset.origin.kind !== 'files') {
    throw new Error('This dataset is downloaded (a URL or an API), not read from files.');
  }
  const fileIds = dataset.origin.fileIds;
  const rows = await store.read(['datasetFiles'], (tx) => tx.getMany('datasetFiles', fileIds));
  const files = rows.map((row, index) => {
    if (!row)
      throw new Error(`A file of this dataset is missing on this device (${fileIds[index]}).`);
    return { name: row.name, bytes: row.bytes };
  });
  return { files, fingerprint: `files:${fileIds.join(',')}` };
}

const CUT_OFF_MESSAGE =
  'Cut off before it finished (the page was reloaded or closed). Resume goes on where it stopped; Cancel takes back the bills it saved.';

/**
 * At start-up: jobs still marked running or queued whose tab is gone are interrupted. `isAlive`
 * says which jobs another open tab is still working on.
 */
export async function markInterruptedJobs(
  store: LocalStore,
  options: { now: string; isAlive?: (jobId: string) => boolean },
): Promise<Job[]> {
  const isAlive = options.isAlive ?? (() => false);
  return store.write(['jobs', 'datasets'], async (tx) => {
    const candidates = [
      ...(await tx.where('jobs', 'status', 'running')),
      ...(await tx.where('jobs', 'status', 'queued')),
    ].filter((job) => !isAlive(job.id));
    const marked: Job[] = [];
    for (const job of candidates) {
      const interrupted: Job = { ...job, status: 'interrupted', message: CUT_OFF_MESSAGE };
      await tx.put('jobs', interrupted);
      marked.push(interrupted);
      const dataset = await tx.get('datasets', job.subjectId);
      if (dataset === undefined) continue;
      // Nobody here asked for an import sync queued: it is asked for again (datasetsNeedingImport),
      // replacing this one, instead of waiting for someone to press Resume.
      const again = job.queuedBy === 'sync' && dataset.lastJobId === job.id;
      if (dataset.state === 'importing' || again) {
        await tx.put('datasets', {
          ...dataset,
          ...(dataset.state === 'importing'
            ? { state: dataset.lastImportAt === null ? 'new' : 'ready' }
            : {}),
          ...(again ? { needsImport: true } : {}),
        });
      }
    }
    return marked;
  });
}

/** An interrupted job queued again, keeping what it staged, so it goes on where it stopped. */
export async function requestResume(store: LocalStore, jobId: string): Promise<Job> {
  return store.write(['jobs'], async (tx) => {
    const job = await tx.get('jobs', jobId);
    if (job?.status !== 'interrupted') {
      throw new DatasetCommandError('Only an interrupted job can be resumed.');
    }
    const queued: Job = { ...job, status: 'queued', finishedAt: null, message: null };
    await tx.put('jobs', queued);
    return queued;
  });
}

/** A failed, cancelled or interrupted job queued again from the start. */
export async function requestRetry(store: LocalStore, jobId: string): Promise<Job> {
  return store.write(['bills', 'jobs', 'importStaging'], async (tx) => {
    const job = await tx.get('jobs', jobId);
    if (job?.status !== 'failed' && job?.status !== 'cancelled' && job?.status !== 'interrupted') {
      throw new DatasetCommandError('Only a failed, cancelled or interrupted job can be retried.');
    }
    await discardImport(tx, jobId, job.subjectId);
    const queued: Job = { ...job, ...notStarted() };
    await tx.put('jobs', queued);
    return queued;
  });
}

/**
 * Cancels a job nobody is running (queued, or interrupted and not wanted any more): its staging
 * goes, the bills stay as they were. A running job is cancelled through its signal instead.
 */
export async function cancelIdleJob(store: LocalStore, jobId: string, now: string): Promise<Job> {
  return store.write(['bills', 'jobs', 'importStaging'], async (tx) => {
    const job = await tx.get('jobs', jobId);
    if (!job) throw new DatasetCommandError('There is no such job.');
    if (job.status !== 'queued' && job.status !== 'interrupted') return job;
    await discardImport(tx, jobId, job.subjectId);
    const cancelled: Job = {
      ...job,
      status: 'cancelled',
      finishedAt: now,
      message: 'Cancelled; no bills were changed.',
    };
    await tx.put('jobs', cancelled);
    return cancelled;
  });
}
