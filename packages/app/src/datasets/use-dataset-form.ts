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

export function useDatasetForm(dataset: Dataset | null) {
  const [initial, setInitial] = useState(() => textOf(dataset));
  const [text, setText] = useState(initial);
  const [files, setFiles] = useState<File[]>([]);
  const [folder, setFolder] = useState<File[]>([]);
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [started, setStarted] = useState<{ datasetId: string; jobId: string } | null>(null);

  // Files that never reached this device (sync's mark) are not there to import again: they must
  // be picked anew.
  const storedFileCount =
    dataset?.origin.kind === 'files' && dataset.filesUnavailable === undefined
      ? dataset.origin.fileIds.length
      : 0;
  const picked = [...files, ...folder];
  const sourceKind = sourceKindOf(text);
  const formValues = () => ({
    ...text,
    sourceKind,
    fromApi: sourceKind !== 'files-or-url',
    pickedFileCount: sourceKind === 'files-or-url' ? picked.length : 0,
    // A URL typed over a files dataset replaces its files, so they do not count then.
    storedFileCount: text.url.trim() === '' ? storedFileCount : 0,
  });
  const validate = (): DatasetFormErrors & ApiSourceFormErrors => {
    const values = formValues();
    return { ...validateDatasetForm(values), ...validateApiSourceForm(values) };
  };
  const errors = attempted ? validate() : {};
  /** The typed fields differ from how the form started (what a draft keeps: files are not). */
  const textChanged =
    started === null &&
    (Object.keys(text) as (keyof DatasetFormText)[]).some((key) => text[key] !== initial[key]);
  const dirty = started === null && (picked.length > 0 || textChanged);

  const set = (key: keyof DatasetFormText, value: string) => {
    setText((current) => ({ ...current, [key]: value }));
  };

  /** Puts a draft's typed fields back. */
  const restoreText = (restored: Partial<DatasetFormText>) => {
    setText((current) => ({
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
    }));
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
      const api = sourceKind !== 'files-or-url';
      checkManagesDatasets();
      checkDatasetSource(api ? 0 : picked.length);
      const result = await importJobs().saveAndImport({
        ...(dataset === null ? {} : { datasetId: dataset.id }),
        ...text,
        sourceKind,
        url: picked.length > 0 || api ? '' : text.url,
        files: api ? [] : picked.map(pickedFile),
      });
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
