import { type DatasetFormErrors, validateDatasetForm } from '@docket/core/commands';
import {
  type ApiSourceFormErrors,
  type DatasetSourceKind,
  validateApiSourceForm,
} from '@docket/core/sources';
import type { Dataset } from '@docket/core/store';
import { useState } from 'react';
import { importJobs } from '../import-worker/import-jobs-client.ts';
import type { PickedFile } from '../import-worker/import-runner.ts';
import { checkDatasetSource, checkManagesDatasets } from '../local-store/dataset-space.ts';

// The add-dataset form's state and its one command: validate with core's rules, then hand the
// dataset and its files to the import worker.

// A type, not an interface: it is kept as a draft, whose fields are a record of strings.
export type DatasetFormText = {
  name: string;
  /** Where the bills come from: 'files-or-url' (picked files, a folder or a URL) or an API. */
  sourceKind: string;
  url: string;
  /** LegiScan's API: the state's postal code and the session's `session_id`. */
  legiscanState: string;
  legiscanSession: string;
  /** Open States API v3: the jurisdiction and the session. */
  openstatesJurisdiction: string;
  openstatesSession: string;
  /** GovInfo's bulk data and the congress.gov API: the Congress and the bill type. */
  congress: string;
  billType: string;
  jurisdiction: string;
  session: string;
};

const apiKinds: ReadonlySet<string> = new Set(['legiscan', 'openstates', 'govinfo', 'congress']);

export function sourceKindOf(text: DatasetFormText): DatasetSourceKind {
  return apiKinds.has(text.sourceKind) ? (text.sourceKind as DatasetSourceKind) : 'files-or-url';
}

function textOf(dataset: Dataset | null): DatasetFormText {
  const origin = dataset?.origin;
  return {
    name: dataset?.name ?? '',
    sourceKind: origin === undefined || !apiKinds.has(origin.kind) ? 'files-or-url' : origin.kind,
    url: origin?.kind === 'url' ? origin.url : '',
    legiscanState: origin?.kind === 'legiscan' ? origin.state : '',
    legiscanSession: origin?.kind === 'legiscan' ? String(origin.sessionId) : '',
    openstatesJurisdiction: origin?.kind === 'openstates' ? origin.jurisdiction : '',
    openstatesSession: origin?.kind === 'openstates' ? origin.session : '',
    congress:
      origin?.kind === 'govinfo' || origin?.kind === 'congress' ? String(origin.congress) : '',
    billType: origin?.kind === 'govinfo' || origin?.kind === 'congress' ? origin.billType : '',
    jurisdiction: dataset?.jurisdiction ?? '',
    session: dataset?.session ?? '',
  };
}

/** The name a picked file keeps: its path inside the picked folder, else its own name. */
export function pickedFile(file: File): PickedFile {
  return { name: file.webkitRelativePath === '' ? file.name : file.webkitRelativePath, blob: file };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * How many files a files dataset keeps on this device to import again. Files that never reached
 * this device (sync's mark) are not there to import again: they must be picked anew.
 */
function storedFileCountOf(dataset: Dataset | null): number {
  return dataset?.origin.kind === 'files' && dataset.filesUnavailable === undefined
    ? dataset.origin.fileIds.length
    : 0;
}

/** Whether any typed field differs from how the form started. */
export function textDiffers(text: DatasetFormText, initial: DatasetFormText): boolean {
  return (Object.keys(text) as (keyof DatasetFormText)[]).some((key) => text[key] !== initial[key]);
}

/** A draft's typed fields put back over the form's: a field the draft lacks stays as it is. */
export function withRestoredText(
  current: DatasetFormText,
  restored: Partial<DatasetFormText>,
): DatasetFormText {
  return {
    name: restored.name ?? current.name,
    sourceKind: restored.sourceKind ?? current.sourceKind,
    url: restored.url ?? current.url,
    legiscanState: restored.legiscanState ?? current.legiscanState,
    legiscanSession: restored.legiscanSession ?? current.legiscanSession,
    openstatesJurisdiction: restored.openstatesJurisdiction ?? current.openstatesJurisdiction,
    openstatesSession: restored.openstatesSession ?? current.openstatesSession,
    congress: restored.congress ?? current.congress,
    billType: restored.billType ?? current.billType,
    jurisdiction: restored.jurisdiction ?? current.jurisdiction,
    session: restored.session ?? current.session,
  };
}

/** Core's refusals of the form as it stands, by field: the dataset's and its API source's. */
export function datasetFormErrors(
  text: DatasetFormText,
  pickedFileCount: number,
  storedFileCount: number,
): DatasetFormErrors & ApiSourceFormErrors {
  const sourceKind = sourceKindOf(text);
  const values = {
    ...text,
    sourceKind,
    fromApi: sourceKind !== 'files-or-url',
    pickedFileCount: sourceKind === 'files-or-url' ? pickedFileCount : 0,
    // A URL typed over a files dataset replaces its files, so they do not count then.
    storedFileCount: text.url.trim() === '' ? storedFileCount : 0,
  };
  return { ...validateDatasetForm(values), ...validateApiSourceForm(values) };
}

/**
 * Saves the dataset (a new one when `dataset` is null) and queues its import in the import
 * worker, with the picked files unless it comes from an API; refused where this account may not
 * manage datasets or a team workspace's dataset would take files.
 */
async function saveAndImport(
  dataset: Dataset | null,
  text: DatasetFormText,
  picked: readonly File[],
): Promise<{ datasetId: string; jobId: string }> {
  const sourceKind = sourceKindOf(text);
  const api = sourceKind !== 'files-or-url';
  checkManagesDatasets();
  checkDatasetSource(api ? 0 : picked.length);
  return importJobs().saveAndImport({
    ...(dataset === null ? {} : { datasetId: dataset.id }),
    ...text,
    sourceKind,
    url: picked.length > 0 || api ? '' : text.url,
    files: api ? [] : picked.map(pickedFile),
  });
}

/** The add-dataset form's fields, picked files, refusals and save, for a new or stored dataset. */
export function useDatasetForm(dataset: Dataset | null) {
  const [initial, setInitial] = useState(() => textOf(dataset));
  const [text, setText] = useState(initial);
  const [files, setFiles] = useState<File[]>([]);
  const [folder, setFolder] = useState<File[]>([]);
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [started, setStarted] = useState<{ datasetId: string; jobId: string } | null>(null);

  const storedFileCount = storedFileCountOf(dataset);
  const picked = [...files, ...folder];
  const sourceKind = sourceKindOf(text);
  const validate = () => datasetFormErrors(text, picked.length, storedFileCount);
  const errors = attempted ? validate() : {};
  /** The typed fields differ from how the form started (what a draft keeps: files are not). */
  const textChanged = started === null && textDiffers(text, initial);
  const dirty = started === null && (picked.length > 0 || textChanged);

  const set = (key: keyof DatasetFormText, value: string) => {
    setText((current) => ({ ...current, [key]: value }));
  };

  /** Puts a draft's typed fields back. */
  const restoreText = (restored: Partial<DatasetFormText>) => {
    setText((current) => withRestoredText(current, restored));
  };

  const reset = () => {
    setText(initial);
    setFiles([]);
    setFolder([]);
    setAttempted(false);
    setFailure(null);
  };

  const submit = async () => {
    setAttempted(true);
    setFailure(null);
    const found = validate();
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const result = await saveAndImport(dataset, text, picked);
      setInitial(text);
      setFiles([]);
      setFolder([]);
      setAttempted(false);
      setStarted(result);
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return {
    text,
    sourceKind,
    set,
    files,
    setFiles,
    folder,
    setFolder,
    storedFileCount,
    errors,
    busy,
    failure,
    dirty,
    textChanged,
    restoreText,
    started,
    reset,
    submit,
  };
}
