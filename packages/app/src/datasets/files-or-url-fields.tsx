import { useEffect, useRef } from 'react';
import { TEAM_DATASET_WORDS } from '../local-store/dataset-space.ts';
import { plural } from '../ui/formatting.ts';
import {
  DatasetTextField,
  type DatasetFormState,
  type ErrorIdOf,
  FieldError,
} from './dataset-text-field.tsx';

export interface FilesOrUrlFieldsProps {
  form: DatasetFormState;
  /** A team workspace's dataset: from a URL, never picked files. */
  team: boolean;
  errorId: ErrorIdOf;
  /** The files input's id: "Import again" of a files dataset whose files never came opens it. */
  filesId: string;
  folderId: string;
}

/**
 * Where the bills of a dataset that is not an API's come from: picked files or a folder (never in
 * a team workspace, whose datasets every member fetches for themselves) or a URL.
 */
export function FilesOrUrlFields({
  form,
  team,
  errorId,
  filesId,
  folderId,
}: FilesOrUrlFieldsProps) {
  const describedBy = form.errors.source === undefined ? undefined : errorId('source');
  const pickedCount = form.files.length + form.folder.length;
  return (
    <fieldset aria-describedby={describedBy}>
      <legend>Where the bills come from</legend>
      {team && <p className="field-hint">{TEAM_DATASET_WORDS}</p>}
      {form.storedFileCount > 0 && (
        <p className="field-hint">
          This dataset keeps {plural(form.storedFileCount, 'file')}. Import reads them again; pick
          files, a folder or a URL to replace them.
        </p>
      )}
      {!team && (
        <>
          <FileField
            id={filesId}
            label="Files"
            hint="JSON, ZIP, XML or CSV: LegiScan, Open States, GovInfo BILLSTATUS, congress data.json or Docket CSV. Several at once is fine."
            folder={false}
            describedBy={describedBy}
            onPick={form.setFiles}
            pickedCount={form.files.length}
          />
          <FileField
            id={folderId}
            label="Folder"
            hint="Every file in a folder and its subfolders."
            folder
            describedBy={describedBy}
            onPick={form.setFolder}
            pickedCount={form.folder.length}
          />
        </>
      )}
      {pickedCount > 0 && (
        <p className="field-hint" role="status">
          {plural(pickedCount, 'file')} picked.
        </p>
      )}
      <DatasetTextField
        form={form}
        field="url"
        errorId={errorId('url')}
        label="URL"
        type="url"
        inputmode="url"
        helperText="The address of a file or ZIP on any site (http or https). Refresh downloads it again when it changed."
      />
      <FieldError id={errorId('source')} message={form.errors.source} />
    </fieldset>
  );
}

function FileField({
  id,
  label,
  hint,
  folder,
  describedBy,
  onPick,
  pickedCount,
}: {
  id: string;
  label: string;
  hint: string;
  folder: boolean;
  describedBy: string | undefined;
  onPick: (files: File[]) => void;
  /** When the form lets go of the picked files, the input forgets them too. */
  pickedCount: number;
}) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // React does not know webkitdirectory; every browser that matters supports it.
    if (folder) input.current?.setAttribute('webkitdirectory', '');
  }, [folder]);
  useEffect(() => {
    if (pickedCount === 0 && input.current) input.current.value = '';
  }, [pickedCount]);
  return (
    <div className="file-field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={input}
        id={id}
        type="file"
        multiple
        aria-describedby={[`${id}-hint`, describedBy].filter(Boolean).join(' ')}
        onChange={(event) => {
          onPick(Array.from(event.currentTarget.files ?? []));
        }}
      />
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
    </div>
  );
}
