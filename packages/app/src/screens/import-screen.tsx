import { IonButton } from '@ionic/react';
import {
  describeCounts,
  userDataFileKindWords,
  type UserDataImportPlan,
} from '@docket/core/export';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import '../ui/forms.css';
import '../ui/user-data-forms.css';
import { useImportSteps, type ImportStep } from '../import/use-import-steps.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';

// Import: pick a file Docket exported (CSV, JSON or Web Annotation JSON-LD), see what it would
// add and change, then import it in one transaction. Reading, checking and writing happen in
// the user-data worker (import/use-import-steps.ts); a file that does not fit gets a message and
// changes nothing.

/** Changes listed one by one before the rest are only counted. */
const LISTED_CHANGES = 50;

export function ImportScreen() {
  const id = useId();
  const { step, input, choose, apply, cancel } = useImportSteps();

  return (
    <>
      <PageHeader title="Import" backHref="/tabs/more" />
      <PageBody>
        <h1>Import</h1>
        <p>
          Import a file <Link to="/export">exported</Link> from Docket: bills with tags, positions
          and decisions (CSV or JSON), or annotations (Web Annotation JSON-LD). Tags are matched by
          name. You see what changes before anything is imported.
        </p>
        <form
          className="user-data-form"
          onSubmit={(event) => {
            event.preventDefault();
          }}
        >
          <div className="form-field">
            <label htmlFor={`${id}-file`}>File</label>
            <input
              ref={input}
              id={`${id}-file`}
              type="file"
              accept=".csv,.json,.jsonld,text/csv,application/json,application/ld+json"
              disabled={step.kind === 'reading' || step.kind === 'importing'}
              onChange={(event) => {
                choose(event.target.files?.[0]);
              }}
            />
          </div>
        </form>
        <ImportOutcome step={step} />
        {(step.kind === 'preview' || step.kind === 'importing') && (
          <Preview
            name={step.file.name}
            plan={step.plan}
            busy={step.kind === 'importing'}
            onImport={() => {
              apply(step.file, step.plan);
            }}
            onCancel={cancel}
          />
        )}
      </PageBody>
    </>
  );
}

/** What the import is doing or did, as a status, and a refusal, as an alert. */
function ImportOutcome({ step }: { readonly step: ImportStep }) {
  return (
    <>
      <div role="status">
        {step.kind === 'reading' && <p>Checking {step.name}…</p>}
        {step.kind === 'importing' && <p>Importing {step.file.name}…</p>}
        {step.kind === 'done' && (
          <p className="form-notice">
            Imported {step.name}: added {describeCounts(step.plan.counts, 'added')}; changed{' '}
            {describeCounts(step.plan.counts, 'changed')}. See them under{' '}
            <Link to="/tabs/tracked">Tracked</Link>.
          </p>
        )}
      </div>
      {step.kind === 'refused' && (
        <p className="form-error" role="alert">
          {step.name} cannot be imported: {step.message} Nothing was changed.
        </p>
      )}
    </>
  );
}

function Preview({
  name,
  plan,
  busy,
  onImport,
  onCancel,
}: {
  readonly name: string;
  readonly plan: UserDataImportPlan;
  readonly busy: boolean;
  readonly onImport: () => void;
  readonly onCancel: () => void;
}) {
  const headingId = useId();
  const added = describeCounts(plan.counts, 'added');
  const changed = describeCounts(plan.counts, 'changed');
  const unchanged = describeCounts(plan.counts, 'unchanged');
  const nothing = added === 'nothing' && changed === 'nothing';
  const listed = plan.changes.slice(0, LISTED_CHANGES);
  return (
    <section className="user-data-preview" aria-labelledby={headingId}>
      <h2 id={headingId}>What this import does</h2>
      <p>
        {name} is {userDataFileKindWords[plan.kind]}.
      </p>
      <dl className="record-facts">
        <dt>Adds</dt>
        <dd>{added}</dd>
        <dt>Changes</dt>
        <dd>{changed}</dd>
        <dt>Already here</dt>
        <dd>{unchanged}</dd>
      </dl>
      {nothing ? (
        <p>This device already has everything in the file.</p>
      ) : (
        <ul aria-label="Changes">
          {listed.map((change, index) => (
            <li key={index}>
              {change.action === 'add' ? 'Add' : 'Change'} · {change.description}
            </li>
          ))}
          {plan.changes.length > listed.length && (
            <li>and {plan.changes.length - listed.length} more</li>
          )}
        </ul>
      )}
      <div className="screen-actions">
        <IonButton disabled={busy || nothing} onClick={onImport}>
          Import
        </IonButton>
        <IonButton fill="outline" disabled={busy} onClick={onCancel}>
          Cancel
        </IonButton>
      </div>
    </section>
  );
}
