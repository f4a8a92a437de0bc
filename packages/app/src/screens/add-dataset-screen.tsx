import { IonButton, IonSpinner } from '@ionic/react';
import type { Dataset } from '@docket/core/store';
import { useId, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import '../ui/forms.css';
import '../ui/user-data-forms.css';
import '../datasets/dataset-source.css';
import { useDatasetForm } from '../datasets/use-dataset-form.ts';
import { useDatasetFormPage } from '../datasets/use-dataset-form-page.ts';
import { DatasetTextField, type DatasetFormState } from '../datasets/dataset-text-field.tsx';
import { SourceChoice } from '../datasets/source-choice.tsx';
import { SessionSourceFields } from '../datasets/session-source-fields.tsx';
import { CongressFields } from '../datasets/congress-fields.tsx';
import { FilesOrUrlFields, type FilesOrUrlFieldsProps } from '../datasets/files-or-url-fields.tsx';
import { OverrideFields } from '../datasets/override-fields.tsx';
import { DatasetPageActions, TeamDatasetRefresh } from '../datasets/dataset-page-actions.tsx';
import { DraftOffer } from '../drafts/draft-offer.tsx';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { useDataset } from '../local-store/live-datasets.ts';
import { DATASET_OWNER_WORDS, useDatasetSpace } from '../local-store/dataset-space.ts';
import { FormError } from '../ui/form-error.tsx';

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
  const ids = useId();
  const errorId = (field: string) => `${ids}-${field}-error`;
  const filesId = `${ids}-files`;
  const folderId = `${ids}-folder`;
  const { draft, removed } = useDatasetFormPage({
    form,
    dataset,
    backHref: BACK_HREF,
    onSavedAndLeft,
  });

  return (
    <>
      <PageHeader title={title} backHref={BACK_HREF} />
      <PageBody>
        <h1>{title}</h1>
        {dataset !== null && (
          <DatasetPageActions dataset={dataset} form={form} filesId={filesId} onRemoved={removed} />
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
          <SourceFields
            form={form}
            team={team}
            errorId={errorId}
            filesId={filesId}
            folderId={folderId}
          />
          <OverrideFields form={form} errorId={errorId} />

          <FormErrors form={form} />
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

/** The fields of the source picked: an API's, or files and a URL. */
function SourceFields(props: FilesOrUrlFieldsProps) {
  const { form, errorId } = props;
  switch (form.sourceKind) {
    case 'legiscan':
    case 'openstates':
      return <SessionSourceFields source={form.sourceKind} form={form} errorId={errorId} />;
    case 'govinfo':
    case 'congress':
      return <CongressFields form={form} errorId={errorId} />;
    case 'files-or-url':
      return <FilesOrUrlFields {...props} />;
  }
}

/** What core refused, all at once, where the Import button is pressed. */
function FormErrors({ form }: { form: DatasetFormState }) {
  const errorCount = Object.keys(form.errors).length;
  if (errorCount === 0) return null;
  return (
    <p className="form-error" role="alert">
      {errorCount === 1 ? 'One thing to fix' : `${errorCount} things to fix`} before importing:{' '}
      {Object.values(form.errors).join(' ')}
    </p>
  );
}
