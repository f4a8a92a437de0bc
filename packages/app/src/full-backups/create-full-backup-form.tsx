import { IonButton } from '@ionic/react';
import { checkFullBackupRequest } from '@docket/core/full-backups';
import { useId, useState, type SyntheticEvent } from 'react';
import { plural } from '../ui/formatting.ts';
import { fullBackups } from '../full-backup-worker/full-backup-client.ts';
import { FullBackupJobStatus } from './full-backup-job-status.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useCommand } from '../ui/use-command.ts';

function defaultName(): string {
  return `Full backup ${new Date().toLocaleDateString('en-CA')}`;
}

/** Name, optional passphrase (twice) and "Create full backup"; then the job's progress. */
export function CreateFullBackupForm() {
  const [name, setName] = useState(defaultName);
  const [passphrase, setPassphrase] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const { busy: sending, error, setError, run } = useCommand();
  const [job, setJob] = useState<{ id: string; name: string } | null>(null);
  const hintId = useId();
  const errorId = useId();

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const request = { name, passphrase, confirmation };
    // The form's refusal (FullBackupError) and a failure of the worker, each said as it is.
    void run(
      (failure) => (failure instanceof Error ? failure.message : String(failure)),
      async () => {
        const checked = checkFullBackupRequest(request);
        const answer = await fullBackups().create(request);
        if (answer.ok) {
          setJob({ id: answer.jobId, name: checked.name });
          setPassphrase('');
          setConfirmation('');
          setName(defaultName());
        } else {
          setError(answer.message);
        }
      },
    );
  };

  return (
    <form className="full-backup-form" onSubmit={submit} noValidate>
      <TextField label="Name" value={name} maxlength={200} autocomplete="off" onChange={setName} />
      <TextField
        label="Passphrase"
        type="password"
        value={passphrase}
        autocomplete="new-password"
        aria-describedby={hintId}
        onChange={setPassphrase}
      />
      <TextField
        label="Confirm passphrase"
        type="password"
        value={confirmation}
        autocomplete="new-password"
        aria-describedby={error === null ? undefined : errorId}
        onChange={setConfirmation}
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
