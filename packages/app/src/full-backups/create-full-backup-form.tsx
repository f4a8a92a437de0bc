import { IonButton, IonInput } from '@ionic/react';
import { checkFullBackupRequest, FullBackupError } from '@docket/core/full-backups';
import { useId, useState, type SyntheticEvent } from 'react';
import { plural } from '../ui/formatting.ts';
import { fullBackups } from '../full-backup-worker/full-backup-client.ts';
import { FullBackupJobStatus } from './full-backup-job-status.tsx';

function defaultName(): string {
  return `Full backup ${new Date().toLocaleDateString('en-CA')}`;
}

/** Name, optional passphrase (twice) and "Create full backup"; then the job's progress. */
export function CreateFullBackupForm() {
  const [name, setName] = useState(defaultName);
  const [passphrase, setPassphrase] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [job, setJob] = useState<{ id: string; name: string } | null>(null);
  const hintId = useId();
  const errorId = useId();

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setError(null);
    const request = { name, passphrase, confirmation };
    let checked: { name: string };
    try {
      checked = checkFullBackupRequest(request);
    } catch (refusal) {
      setError(refusal instanceof FullBackupError ? refusal.message : String(refusal));
      return;
    }
    setSending(true);
    fullBackups()
      .create(request)
      .then((answer) => {
        if (answer.ok) {
          setJob({ id: answer.jobId, name: checked.name });
          setPassphrase('');
          setConfirmation('');
          setName(defaultName());
        } else {
          setError(answer.message);
        }
      })
      .catch((failure: unknown) => {
        setError(failure instanceof Error ? failure.message : String(failure));
      })
      .finally(() => {
        setSending(false);
      });
  };

  return (
    <form className="full-backup-form" onSubmit={submit} noValidate>
      <IonInput
        label="Name"
        labelPlacement="stacked"
        fill="outline"
        value={name}
        maxlength={200}
        autocomplete="off"
        onIonInput={(event) => {
          setName(event.detail.value ?? '');
        }}
      />
      <IonInput
        label="Passphrase"
        labelPlacement="stacked"
        fill="outline"
        type="password"
        value={passphrase}
        autocomplete="new-password"
        aria-describedby={hintId}
        onIonInput={(event) => {
          setPassphrase(event.detail.value ?? '');
        }}
      />
      <IonInput
        label="Confirm passphrase"
        labelPlacement="stacked"
        fill="outline"
        type="password"
        value={confirmation}
        autocomplete="new-password"
        aria-describedby={error === null ? undefined : errorId}
        onIonInput={(event) => {
          setConfirmation(event.detail.value ?? '');
        }}
      />
      <p id={hintId} className="field-hint">
        Optional. With a passphrase the file is encrypted; without one, anyone who has the file can
        read it. Docket cannot recover a forgotten passphrase.
      </p>
      {error !== null && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
      <div>
        <IonButton type="submit" disabled={sending}>
          Create full backup
        </IonButton>
      </div>
      {job !== null && (
        <FullBackupJobStatus
          key={job.id}
          jobId={job.id}
          label={`Full backup: ${job.name}`}
          doneText={(done) =>
            `Created the full backup "${job.name}" (${plural(done.progress.written, 'row')}).`
          }
        />
      )}
    </form>
  );
}
