import { IonButton } from '@ionic/react';
import {
  describeCounts,
  MAX_IMPORT_BYTES,
  userDataFileKindWords,
  type UserDataImportPlan,
} from '@docket/core/export';
import { transfer } from 'comlink';
import { useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import '../ui/forms.css';
import '../ui/user-data-forms.css';
import { userDataWorker } from '../user-data-worker/user-data-client.ts';
import type { ImportCheck, PickedImportFile } from '../user-data-worker/user-data-runner.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';

// Import: pick a file Docket exported (CSV, JSON or Web Annotation JSON-LD), see what it would
// add and change, then import it in one transaction. Reading, checking and writing happen in
// the user-data worker; a file that does not fit gets a message and changes nothing.

/** Changes listed one by one before the rest are only counted. */
const LISTED_CHANGES = 50;

type Step =
  | { readonly kind: 'idle' }
  | { readonly kind: 'reading'; readonly name: string }
  | { readonly kind: 'preview'; readonly file: File; readonly plan: UserDataImportPlan }
  | { readonly kind: 'importing'; readonly file: File; readonly plan: UserDataImportPlan }
  | { readonly kind: 'done'; readonly name: string; readonly plan: UserDataImportPlan }
  | { readonly kind: 'refused'; readonly name: string; readonly message: string };

async function picked(file: File): Promise<PickedImportFile> {
  return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
}

/** Hands the file's bytes to the worker (moved, not copied) for a preview or the import. */
async function send(file: File, step: 'previewImport' | 'applyImport'): Promise<ImportCheck> {
  const data = await picked(file);
  const result: ImportCheck = await userDataWorker()[step](transfer(data, [data.bytes.buffer]));
  return result;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function ImportScreen() {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<Step>({ kind: 'idle' });

  const check = (file: File) => {
    if (file.size > MAX_IMPORT_BYTES) {
      // Refused before reading: a huge file would be held in memory twice on the way.
      setStep({
        kind: 'refused',
        name: file.name,
        message: `The file is larger than ${MAX_IMPORT_BYTES / (1024 * 1024)} MB; Docket exports are smaller.`,
      });
      return;
    }
    setStep({ kind: 'reading', name: file.name });
    send(file, 'previewImport')
      .then((result) => {
        setStep(
          result.ok
            ? { kind: 'preview', file, plan: result.plan }
            : { kind: 'refused', name: file.name, message: result.message },
        );
      })
      .catch((error: unknown) => {
        setStep({ kind: 'refused', name: file.name, message: errorText(error) });
      });
  };

  const apply = (file: File, plan: UserDataImportPlan) => {
    setStep({ kind: 'importing', file, plan });
    send(file, 'applyImport')
      .then((result) => {
        setStep(
          result.ok
            ? { kind: 'done', name: file.name, plan: result.plan }
            : { kind: 'refused', name: file.name, message: result.message },
        );
        if (input.current !== null) input.current.value = '';
      })
      .catch((error: unknown) => {
        setStep({ kind: 'refused', name: file.name, message: errorText(error) });
      });
  };

  const cancel = () => {
    setStep({ kind: 'idle' });
    if (input.current !== null) input.current.value = '';
  };

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
                const file = event.target.files?.[0];
                if (file === undefined) setStep({ kind: 'idle' });
                else check(file);
              }}
            />
          </div>
        </form>
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
