import { type DatasetFormErrors, validateDatasetForm } from '@docket/core/commands';
import type { Dataset } from '@docket/core/store';
import { useState } from 'react';
import { importJobs } from '../import-worker/import-jobs-client.ts';
import type { PickedFile } from '../import-worker/import-runner.ts';

// The add-dataset form's state and its one command: validate with core's rules, then hand the
// dataset and its files to the import worker.

// A type, not an interface: it is kept as a draft, whose fields are a record of strings.
export type DatasetFormText = {
  name: string;
  url: string;
  jurisdiction: string;
  session: string;
};

function textOf(dataset: Dataset | null): DatasetFormText {
  return {
    name: dataset?.name ?? '',
    url: dataset?.origin.kind === 'url' ? dataset.origin.url : '',
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

  const storedFileCount = dataset?.origin.kind === 'files' ? dataset.origin.fileIds.length : 0;
  const picked = [...files, ...folder];
  const errors: DatasetFormErrors = attempted
    ? validateDatasetForm({
        ...text,
        pickedFileCount: picked.length,
        // A URL typed over a files dataset replaces its files, so they do not count then.
        storedFileCount: text.url.trim() === '' ? storedFileCount : 0,
      })
    : {};
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
      url: restored.url ?? current.url,
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
    const found = validateDatasetForm({
      ...text,
      pickedFileCount: picked.length,
      storedFileCount: text.url.trim() === '' ? storedFileCount : 0,
    });
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const result = await importJobs().saveAndImport({
        ...(dataset === null ? {} : { datasetId: dataset.id }),
        ...text,
        url: picked.length > 0 ? '' : text.url,
        files: picked.map(pickedFile),
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
