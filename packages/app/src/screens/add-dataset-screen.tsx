import { IonButton, IonSpinner, useIonRouter, useIonViewDidLeave } from '@ionic/react';
import type { Dataset } from '@docket/core/store';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import '../ui/forms.css';
import '../ui/user-data-forms.css';
import '../datasets/dataset-source.css';
import { plural } from '../ui/formatting.ts';
import { type DatasetFormText, useDatasetForm } from '../datasets/use-dataset-form.ts';
import { TextField, type TextFieldProps } from '../ui/text-field.tsx';
import { useUnsavedChangesGuard } from '../ui/use-unsaved-changes-guard.ts';
import { DraftOffer } from '../drafts/draft-offer.tsx';
import { useFormDraft } from '../drafts/use-form-draft.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { useDataset } from '../local-store/live-datasets.ts';
import { useJob } from '../local-store/live-jobs.ts';
import { DeleteDatasetButton } from '../datasets/dataset-delete.tsx';
import { FilesUnavailableActions } from '../datasets/dataset-files-unavailable.tsx';
import { RefreshDatasetButton } from '../datasets/dataset-refresh.tsx';
import { filesUnavailableWords, lastResultWords } from '../datasets/dataset-words.ts';
import { FormError } from '../ui/form-error.tsx';
import { useApiKey } from '../local-store/live-api-keys.ts';
import { SessionPicker } from '../datasets/session-picker.tsx';
import {
  DATASET_OWNER_WORDS,
  TEAM_DATASET_WORDS,
  useDatasetSpace,
} from '../local-store/dataset-space.ts';

/** The form's choice of source: picked files or a URL, or an API. */
function SourceChoice({
  form,
  team,
}: {
  form: ReturnType<typeof useDatasetForm>;
  /** A team workspace's dataset: from a URL or an API, never picked files. */
  team: boolean;
}) {
  const name = useId();
  const choices = [
    { value: 'files-or-url', label: team ? 'A URL' : 'Files or a URL' },
    { value: 'legiscan', label: 'LegiScan API' },
    { value: 'openstates', label: 'Open States API' },
    { value: 'govinfo', label: 'GovInfo bulk data' },
    { value: 'congress', label: 'Congress.gov API' },
  ] as const;
  return (
    <fieldset className="source-choice">
      <legend>Source</legend>
      {choices.map((choice) => (
        <label key={choice.value} className="source-choice-option">
          <input
            type="radio"
            name={name}
            value={choice.value}
            checked={form.sourceKind === choice.value}
            onChange={() => {
              form.set('sourceKind', choice.value);
            }}
          />
          {choice.label}
        </label>
      ))}
    </fieldset>
  );
}

const apiKeyNames = {
  legiscan: 'LegiScan',
  openstates: 'Open States',
  congress: 'Congress.gov',
} as const;

/** The Congress and bill type of a GovInfo or congress.gov dataset. */
function CongressFields({
  form,
  errorId,
}: {
  form: ReturnType<typeof useDatasetForm>;
  errorId: (field: 'congress' | 'billType') => string;
}) {
  const govinfo = form.sourceKind === 'govinfo';
  return (
    <fieldset>
      <legend>{govinfo ? 'GovInfo BILLSTATUS files' : 'Congress.gov bills'}</legend>
      <DatasetTextField
        form={form}
        field="congress"
        errorId={errorId('congress')}
        label="Congress"
        inputmode="numeric"
        maxlength={5}
        autocomplete="off"
        helperText="Its number, such as 118."
      />
      <BillTypeField form={form} errorId={errorId('billType')} />
      <p className="field-hint">
        {govinfo
          ? 'Refresh reads only the files GovInfo lists as changed; no key is needed.'
          : 'Refresh reads only the bills updated since the last one.'}
      </p>
      {govinfo ? null : <ApiKeyState source="congress" />}
    </fieldset>
  );
}

/** The bill types of Congress, as GovInfo and congress.gov name them in their paths. */
const billTypes = [
  ['hr', 'House bills (hr)'],
  ['s', 'Senate bills (s)'],
  ['hjres', 'House joint resolutions (hjres)'],
  ['sjres', 'Senate joint resolutions (sjres)'],
  ['hconres', 'House concurrent resolutions (hconres)'],
  ['sconres', 'Senate concurrent resolutions (sconres)'],
  ['hres', 'House resolutions (hres)'],
  ['sres', 'Senate resolutions (sres)'],
] as const;

/**
 * The bill type, picked from the eight Congress has rather than typed. A value the list does not
 * hold (a draft or a dataset saved before the list) is shown as it is, so nothing is lost unseen,
 * and the form's own check says what is wrong with it.
 */
function BillTypeField({
  form,
  errorId,
}: {
  form: ReturnType<typeof useDatasetForm>;
  errorId: string;
}) {
  const id = useId();
  const value = form.text.billType;
  const error = form.errors.billType;
  const known = billTypes.some(([type]) => type === value.trim().toLowerCase());
  return (
    <div className="form-field">
      <label htmlFor={id}>Bill type</label>
      <select
        id={id}
        value={known ? value.trim().toLowerCase() : value}
        aria-describedby={error === undefined ? undefined : errorId}
        aria-invalid={error === undefined ? undefined : true}
        onChange={(event) => {
          form.set('billType', event.target.value);
        }}
      >
        <option value="">Pick a bill type</option>
        {known || value === '' ? null : <option value={value}>{value}</option>}
        {billTypes.map(([type, words]) => (
          <option key={type} value={type}>
            {words}
          </option>
        ))}
      </select>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** Whether the user's key for an API is saved, and where to add it when it is not. */
function ApiKeyState({ source }: { source: 'legiscan' | 'openstates' | 'congress' }) {
  const saved = useApiKey(source);
  const name = apiKeyNames[source];
  if (saved === undefined) return null;
  return (
    <p className="field-hint" role="status">
      {saved === null ? (
        <>
          No {name} API key is saved yet: add it under Settings on the{' '}
          <Link to="/tabs/more">More</Link> tab before importing.
        </>
      ) : (
        `Uses your ${name} API key from Settings on the More tab.`
      )}
    </p>
  );
}

const BACK_HREF = '/tabs/datasets';

/** /add-dataset adds a dataset; /add-dataset/:id edits an existing one and imports it again. */
export function AddDatasetScreen() {
  const { id } = useParams();
  const dataset = useDataset(id);
  // Ionic keeps this page mounted under the jobs screen after a save; Back should find a form
  // that starts afresh (and warns again), not the one already saved.
  const [round, setRound] = useState(0);
  const startAfresh = () => {
    setRound((current) => current + 1);
  };
  const title = id === undefined ? 'Add dataset' : 'Edit dataset';
  const space = useDatasetSpace();
  if (!space.manages) {
    // An editor or a viewer in a team workspace: the owners' definition, fetched on this device.
    return (
      <>
        <PageHeader title={title} backHref={BACK_HREF} />
        <PageBody>
          <h1>{title}</h1>
          <p>{DATASET_OWNER_WORDS}</p>
          {dataset != null && <TeamDatasetRefresh dataset={dataset} />}
          <p>
            <Link to="/datasets">See the workspace’s datasets</Link>.
          </p>
        </PageBody>
      </>
    );
  }
  if (id !== undefined && dataset == null) {
    return (
      <>
        <PageHeader title={title} backHref={BACK_HREF} />
        <PageBody>
          <h1>{title}</h1>
          {dataset === undefined ? (
            <p role="status">Loading the dataset…</p>
          ) : (
            <p>
              There is no dataset with this id on this device.{' '}
              <Link to="/datasets">See your datasets</Link>.
            </p>
          )}
        </PageBody>
      </>
    );
  }
  return (
    <DatasetForm
      key={`${id ?? 'new'} ${String(round)}`}
      title={title}
      dataset={dataset ?? null}
      onSavedAndLeft={startAfresh}
    />
  );
}

/** A member's own "Refresh" of a team dataset: its bills fetched again on this device. */
function TeamDatasetRefresh({ dataset }: { dataset: Dataset }) {
  const lastJob = useJob(dataset.lastJobId);
  return (
    <div className="screen-actions">
      <RefreshDatasetButton dataset={dataset} lastJob={lastJob} />
    </div>
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

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (message === undefined) return null;
  return (
    <p id={id} className="field-error">
      {message}
    </p>
  );
}

/** One of the form's typed fields, with core's refusal of it below. */
function DatasetTextField({
  form,
  field,
  errorId,
  ...input
}: {
  form: ReturnType<typeof useDatasetForm>;
  field: Exclude<keyof DatasetFormText, 'sourceKind'>;
  errorId: string;
} & Omit<TextFieldProps, 'value' | 'onChange' | 'aria-describedby'>) {
  const error = form.errors[field];
  return (
    <>
      <TextField
        {...input}
        value={form.text[field]}
        aria-describedby={error === undefined ? undefined : errorId}
        onChange={(value) => {
          form.set(field, value);
        }}
      />
      <FieldError id={errorId} message={error} />
    </>
  );
}

function DatasetForm({
  title,
  dataset,
  onSavedAndLeft,
}: {
  title: string;
  dataset: Dataset | null;
  onSavedAndLeft: () => void;
}) {
  const form = useDatasetForm(dataset);
  const { team } = useDatasetSpace();
  const ionRouter = useIonRouter();
  const ids = useId();
  const errorId = (field: string) => `${ids}-${field}-error`;
  // The typed fields are kept on this device as they are typed; saving or leaving lets them go.
  const draft = useFormDraft({
    form: 'dataset',
    scope: dataset?.id ?? 'new',
    fields: form.text,
    dirty: form.textChanged,
    onRestore: form.restoreText,
  });
  const reset = form.reset;
  const clearDraft = draft.clear;
  const leave = useCallback(() => {
    reset();
    clearDraft();
  }, [reset, clearDraft]);
  useUnsavedChangesGuard(form.dirty, leave, 'The changes you made to this dataset will be lost.');

  const started = form.started;
  const shownJobsFor = useRef<typeof started>(null);
  useEffect(() => {
    // After the guard has seen the form clean again, so it lets this navigation through. Once
    // per save: useIonRouter's value changes with every navigation, which runs this again.
    if (started === null || shownJobsFor.current === started) return;
    shownJobsFor.current = started;
    clearDraft();
    ionRouter.push('/jobs', 'forward', 'push');
  }, [started, ionRouter, clearDraft]);
  const savedAndLeft = useRef({ started, onSavedAndLeft });
  useEffect(() => {
    savedAndLeft.current = { started, onSavedAndLeft };
  }, [started, onSavedAndLeft]);
  useIonViewDidLeave(() => {
    if (savedAndLeft.current.started !== null) savedAndLeft.current.onSavedAndLeft();
  });

  const lastJob = useJob(dataset?.lastJobId ?? null);
  const lastResult = lastResultWords(lastJob);
  const unavailable = dataset === null ? null : filesUnavailableWords(dataset);
  const filesId = `${ids}-files`;
  const removed = () => {
    leave();
    ionRouter.push(BACK_HREF, 'back');
  };
  const errorCount = Object.keys(form.errors).length;
  const describedBy = (field: keyof typeof form.errors) =>
    form.errors[field] === undefined ? undefined : errorId(field);

  return (
    <>
      <PageHeader title={title} backHref={BACK_HREF} />
      <PageBody>
        <h1>{title}</h1>
        {dataset !== null && unavailable !== null && (
          <div className="screen-actions">
            <p role="status">
              {unavailable} Pick its files again below and import them, or remove the dataset.
            </p>
            <FilesUnavailableActions
              dataset={dataset}
              lastJob={lastJob}
              onImportAgain={() => {
                form.set('sourceKind', 'files-or-url');
                // The picker opens from the button's own click, as browsers require.
                const input = document.getElementById(filesId);
                input?.focus();
                input?.click();
              }}
              onRemoved={removed}
            />
          </div>
        )}
        {dataset !== null && unavailable === null && (
          <div className="screen-actions">
            <RefreshDatasetButton dataset={dataset} lastJob={lastJob} />
            <DeleteDatasetButton dataset={dataset} lastJob={lastJob} onDeleted={removed} />
            {dataset.origin.kind !== 'files' && lastResult !== null && (
              <p role="status">Last result: {lastResult}</p>
            )}
          </div>
        )}
        <DraftOffer
          draft={draft}
          what="dataset"
          preview={(fields) => [fields.name, fields.url].filter(Boolean).join(' · ')}
          hint="Picked files are not kept: pick them again."
        />
        <form
          className="dataset-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void form.submit();
          }}
        >
          <DatasetTextField
            form={form}
            field="name"
            errorId={errorId('name')}
            label="Name"
            maxlength={200}
            autocomplete="off"
          />

          <SourceChoice form={form} team={team} />
          {form.sourceKind === 'legiscan' ? (
            <fieldset>
              <legend>LegiScan dataset</legend>
              <DatasetTextField
                form={form}
                field="legiscanState"
                errorId={errorId('legiscanState')}
                label="State"
                maxlength={2}
                autocapitalize="characters"
                autocomplete="off"
                helperText='Its postal code, such as "AK", or "US" for Congress.'
              />
              <SessionPicker
                source="legiscan"
                place={form.text.legiscanState}
                value={form.text.legiscanSession}
                onPick={(id) => {
                  form.set('legiscanSession', id);
                }}
                error={form.errors.legiscanSession}
                errorId={errorId('legiscanSession')}
                manualField={
                  <DatasetTextField
                    form={form}
                    field="legiscanSession"
                    errorId={errorId('legiscanSession')}
                    label="LegiScan session ID"
                    inputmode="numeric"
                    maxlength={9}
                    autocomplete="off"
                    helperText="The session_id LegiScan's list of datasets gives the session, such as 1843. Refresh downloads the dataset again when LegiScan rebuilt it."
                  />
                }
              />
              <ApiKeyState source="legiscan" />
            </fieldset>
          ) : form.sourceKind === 'govinfo' || form.sourceKind === 'congress' ? (
            <CongressFields form={form} errorId={errorId} />
          ) : form.sourceKind === 'openstates' ? (
            <fieldset>
              <legend>Open States dataset</legend>
              <DatasetTextField
                form={form}
                field="openstatesJurisdiction"
                errorId={errorId('openstatesJurisdiction')}
                label="Open States jurisdiction"
                maxlength={200}
                autocomplete="off"
                helperText='As Open States names it: "Alaska", "ak" or an ocd-jurisdiction id.'
              />
              <SessionPicker
                source="openstates"
                place={form.text.openstatesJurisdiction}
                value={form.text.openstatesSession}
                onPick={(id) => {
                  form.set('openstatesSession', id);
                }}
                error={form.errors.openstatesSession}
                errorId={errorId('openstatesSession')}
                manualField={
                  <DatasetTextField
                    form={form}
                    field="openstatesSession"
                    errorId={errorId('openstatesSession')}
                    label="Open States session"
                    maxlength={100}
                    autocomplete="off"
                    helperText='Its identifier in Open States, such as "2023" or "33". Refresh reads only the bills updated since the last one.'
                  />
                }
              />
              <ApiKeyState source="openstates" />
            </fieldset>
          ) : (
            <fieldset aria-describedby={describedBy('source')}>
              <legend>Where the bills come from</legend>
              {team && <p className="field-hint">{TEAM_DATASET_WORDS}</p>}
              {form.storedFileCount > 0 && (
                <p className="field-hint">
                  This dataset keeps {plural(form.storedFileCount, 'file')}. Import reads them
                  again; pick files, a folder or a URL to replace them.
                </p>
              )}
              {!team && (
                <>
                  <FileField
                    id={filesId}
                    label="Files"
                    hint="JSON, ZIP, XML or CSV: LegiScan, Open States, GovInfo BILLSTATUS, congress data.json or Docket CSV. Several at once is fine."
                    folder={false}
                    describedBy={describedBy('source')}
                    onPick={form.setFiles}
                    pickedCount={form.files.length}
                  />
                  <FileField
                    id={`${ids}-folder`}
                    label="Folder"
                    hint="Every file in a folder and its subfolders."
                    folder
                    describedBy={describedBy('source')}
                    onPick={form.setFolder}
                    pickedCount={form.folder.length}
                  />
                </>
              )}
              {form.files.length + form.folder.length > 0 && (
                <p className="field-hint" role="status">
                  {plural(form.files.length + form.folder.length, 'file')} picked.
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
          )}

          <fieldset>
            <legend>Overrides (optional)</legend>
            <DatasetTextField
              form={form}
              field="jurisdiction"
              errorId={errorId('jurisdiction')}
              label="Jurisdiction"
              helperText='Only when the files do not say or say wrongly: "us", "CA", "us-ca" or a state name.'
            />
            <DatasetTextField
              form={form}
              field="session"
              errorId={errorId('session')}
              label="Session"
              helperText='For example "118" or "2023-2024 Regular Session".'
            />
          </fieldset>

          {errorCount > 0 && (
            <p className="form-error" role="alert">
              {errorCount === 1 ? 'One thing to fix' : `${errorCount} things to fix`} before
              importing: {Object.values(form.errors).join(' ')}
            </p>
          )}
          <FormError message={form.failure} />
          <IonButton type="submit" expand="block" disabled={form.busy}>
            {form.busy ? <IonSpinner name="dots" aria-hidden="true" /> : null}
            Import
          </IonButton>
        </form>
      </PageBody>
    </>
  );
}
