import { IonButton, IonSpinner } from '@ionic/react';
import { useEffect, useState, type SyntheticEvent } from 'react';
import { Link } from 'react-router-dom';
import { formatDateTime, plural } from '../ui/formatting.ts';
import { fullBackups } from '../full-backup-worker/full-backup-client.ts';
import { FullBackupJobStatus } from './full-backup-job-status.tsx';
import type {
  FullBackupPreview,
  FullBackupSource,
  PreviewAnswer,
  RestoreMode,
} from '../full-backup-worker/full-backup-runner.ts';
import {
  formatBytes,
  mergeWords,
  reasonWords,
  replaceWords,
  tableCount,
} from './full-backup-words.ts';
import { FullBackupConfirm } from './full-backup-confirm.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useCommand } from '../ui/use-command.ts';

/** What opens the file: its passphrase, and a locked account's password (empty when unneeded). */
interface Secrets {
  readonly passphrase: string;
  readonly accountPassword: string;
}

type Phase =
  | { readonly kind: 'checking' }
  | { readonly kind: 'passphrase'; readonly error: string | null }
  | { readonly kind: 'account-password'; readonly error: string | null }
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'ready'; readonly preview: FullBackupPreview; readonly secrets: Secrets };

/** The phase an answer leads to, with the secrets that were tried. */
function phaseOf(answer: PreviewAnswer, secrets: Secrets, first: boolean): Phase {
  if (answer.ok) return { kind: 'ready', preview: answer.preview, secrets };
  const error = first ? null : answer.message;
  switch (answer.code) {
    case 'needs-passphrase':
    case 'wrong-passphrase':
      return { kind: 'passphrase', error };
    case 'needs-account-password':
      return { kind: 'account-password', error: secrets.accountPassword === '' ? null : error };
    case 'wrong-account-password':
      return { kind: 'account-password', error: answer.message };
    default:
      return { kind: 'refused', message: answer.message };
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Opening a full backup: checked once with no secrets, then again with what is typed, until
 * its preview is ready or it is refused.
 */
function usePreviewOpening(source: FullBackupSource) {
  const [phase, setPhase] = useState<Phase>({ kind: 'checking' });
  const [passphrase, setPassphrase] = useState('');
  const [accountPassword, setAccountPassword] = useState('');
  const [opening, setOpening] = useState(false);

  useEffect(() => {
    // Callers key this panel by its source, so a new source starts from 'checking'.
    let current = true;
    fullBackups()
      .preview(source, '')
      .then((answer) => {
        if (current) setPhase(phaseOf(answer, { passphrase: '', accountPassword: '' }, true));
      })
      .catch((error: unknown) => {
        if (current) setPhase({ kind: 'refused', message: message(error) });
      });
    return () => {
      current = false;
    };
  }, [source]);

  const open = (event: SyntheticEvent) => {
    event.preventDefault();
    setOpening(true);
    const secrets = { passphrase, accountPassword };
    fullBackups()
      .preview(source, passphrase, accountPassword)
      .then((answer) => {
        setPhase(phaseOf(answer, secrets, false));
      })
      .catch((error: unknown) => {
        setPhase({ kind: 'refused', message: message(error) });
      })
      .finally(() => {
        setOpening(false);
      });
  };

  return { phase, passphrase, setPassphrase, accountPassword, setAccountPassword, opening, open };
}

/**
 * What a full backup holds (a stored one or a picked file), checked from end to end in the
 * worker, asking for its passphrase when it has one; then "Restore", after a confirmation.
 */
export function FullBackupPreviewPanel({
  source,
  label,
}: {
  readonly source: FullBackupSource;
  readonly label: string;
}) {
  const { phase, passphrase, setPassphrase, accountPassword, setAccountPassword, opening, open } =
    usePreviewOpening(source);

  switch (phase.kind) {
    case 'checking':
      return (
        <p role="status">
          <IonSpinner name="dots" aria-hidden="true" /> Checking the full backup…
        </p>
      );
    case 'refused':
      return (
        <p className="field-error" role="alert">
          {phase.message} Nothing was changed.
        </p>
      );
    case 'passphrase':
      return (
        <SecretForm
          intro="This full backup is protected by a passphrase. Enter it to see what it holds."
          label="Passphrase"
          value={passphrase}
          onChange={setPassphrase}
          error={phase.error}
          opening={opening}
          checking="Checking the passphrase…"
          onSubmit={open}
        />
      );
    case 'account-password':
      return (
        <SecretForm
          intro="This full backup holds an account’s work that was locked on its device. Enter that account’s password to see what it holds."
          label="Account password"
          value={accountPassword}
          onChange={setAccountPassword}
          error={phase.error}
          opening={opening}
          checking="Checking the password…"
          onSubmit={open}
        />
      );
    case 'ready':
      return (
        <PreviewContents
          preview={phase.preview}
          source={source}
          label={label}
          secrets={phase.secrets}
        />
      );
  }
}

/** Asks for a secret the file needs to open: its passphrase, or a locked account's password. */
function SecretForm({
  intro,
  label,
  value,
  onChange,
  error,
  opening,
  checking,
  onSubmit,
}: {
  /** Why the secret is asked for. */
  readonly intro: string;
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** Why the last try did not open the file; null before a try or when none failed. */
  readonly error: string | null;
  readonly opening: boolean;
  /** What is said while the typed secret is being tried. */
  readonly checking: string;
  readonly onSubmit: (event: SyntheticEvent) => void;
}) {
  return (
    <form className="full-backup-form" onSubmit={onSubmit} noValidate>
      <p>{intro}</p>
      <TextField
        label={label}
        type="password"
        value={value}
        autocomplete="current-password"
        onChange={onChange}
      />
      {error !== null && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div>
        <IonButton type="submit" disabled={opening || value === ''}>
          Open
        </IonButton>
      </div>
      {opening && <p role="status">{checking}</p>}
    </form>
  );
}

/** A restore under way: its job and whether it merges or replaces. */
interface RestoreJob {
  id: string;
  mode: RestoreMode;
}

/**
 * Restoring an opened full backup with the secrets that opened it: Replace is asked about
 * first, a refusal is said, and the job once started is followed.
 */
function useRestore(source: FullBackupSource, secrets: Secrets) {
  const [asking, setAsking] = useState(false);
  const { busy: sending, error: failure, setError: setFailure, run } = useCommand();
  const [job, setJob] = useState<RestoreJob | null>(null);

  const restore = (mode: RestoreMode) => {
    void run(message, async () => {
      const answer = await fullBackups().restore(
        source,
        secrets.passphrase,
        mode,
        secrets.accountPassword,
      );
      if (answer.ok) {
        setJob({ id: answer.jobId, mode });
        setAsking(false);
      } else setFailure(answer.message);
    });
  };

  return { asking, setAsking, sending, failure, job, restore };
}

/** An opened full backup: what it holds, then Merge or Replace and the restore that follows. */
function PreviewContents({
  preview,
  source,
  label,
  secrets,
}: {
  readonly preview: FullBackupPreview;
  readonly source: FullBackupSource;
  readonly label: string;
  readonly secrets: Secrets;
}) {
  const { asking, setAsking, sending, failure, job, restore } = useRestore(source, secrets);

  return (
    <section className="full-backup-section" aria-labelledby="full-backup-contents">
      <h2 id="full-backup-contents">What this full backup holds</h2>
      <BackupFacts preview={preview} />
      <BackupHoldings preview={preview} />
      <BackupScopeNote preview={preview} />

      {job === null && (
        <RestoreChoice
          preview={preview}
          asking={asking}
          sending={sending}
          onMerge={() => {
            restore('merge');
          }}
          onAsk={setAsking}
          onReplace={() => {
            restore('replace');
          }}
        />
      )}
      {failure !== null && (
        <p className="field-error" role="alert">
          {failure} Nothing was changed.
        </p>
      )}
      {job !== null && (
        <>
          <FullBackupJobStatus
            jobId={job.id}
            label={`Restore of ${label}`}
            doneText={(done) =>
              `${job.mode === 'merge' ? 'Merged' : 'Restored'}. ${done.message ?? ''}`
            }
          />
          <p>
            <Link to="/add-full-backup">See the full backups on this device</Link>
          </p>
        </>
      )}
    </section>
  );
}

/** The backup's facts: its name, when and where it was made, why, its passphrase and size. */
function BackupFacts({ preview }: { readonly preview: FullBackupPreview }) {
  const { manifest } = preview;
  return (
    <dl className="record-facts">
      <dt>Name</dt>
      <dd>{manifest.name}</dd>
      <dt>Made</dt>
      <dd>
        {preview.createdAt === null || preview.createdAt === ''
          ? 'Not recorded'
          : formatDateTime(preview.createdAt)}
      </dd>
      <dt>Device</dt>
      <dd>
        {preview.thisDevice === null
          ? 'Not recorded'
          : preview.thisDevice
            ? 'This device'
            : 'Another device'}
      </dd>
      <dt>Why</dt>
      <dd>{reasonWords(manifest.reason)}</dd>
      <dt>Passphrase</dt>
      <dd>{preview.encrypted ? 'Yes, encrypted' : 'None, not encrypted'}</dd>
      {manifest.lockedAccount !== undefined && (
        <>
          <dt>Locked</dt>
          <dd>
            Yes: an account’s work, locked on its device; it opened with that account’s password
          </dd>
        </>
      )}
      <dt>Size</dt>
      <dd>{formatBytes(preview.size)}</dd>
    </dl>
  );
}

/** What the backup holds: its rows by table, then its datasets. */
function BackupHoldings({ preview }: { readonly preview: FullBackupPreview }) {
  const { manifest } = preview;
  const held = preview.tables.filter(({ rows }) => rows > 0);
  return (
    <>
      <h3>Contents</h3>
      {held.length === 0 ? (
        <p>It holds no rows: restoring it empties this device.</p>
      ) : (
        <ul className="full-backup-contents" aria-label="Contents">
          {held.map(({ table, rows }) => (
            <li key={table}>{tableCount(table, rows)}</li>
          ))}
        </ul>
      )}
      <h3>Datasets</h3>
      {manifest.datasets.length === 0 ? (
        <p>No datasets.</p>
      ) : (
        <ul className="full-backup-contents" aria-label="Datasets">
          {manifest.datasets.map((dataset) => (
            <li key={dataset.id}>
              {dataset.name}
              {manifest.scope === 'device' &&
                ` (${plural(dataset.files, 'file')}, ${formatBytes(dataset.bytes)})`}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** What a restore of this kind of backup leaves alone: bills (sync's backup) or device secrets. */
function BackupScopeNote({ preview }: { readonly preview: FullBackupPreview }) {
  const { manifest } = preview;
  return manifest.scope === 'user-data' ? (
    <p>
      Sync made this backup of your own work (tags, positions, decisions, annotations and datasets)
      before it replaced them. Merging or replacing touches only those; bills and everything else
      stay as they are.
    </p>
  ) : (
    <p>
      Device secrets are never in a full backup: the cloud password&rsquo;s keys stay on the device
      that made them
      {manifest.skippedSettings > 0 && ` (${plural(manifest.skippedSettings, 'setting')} left out)`}
      . After a restore, sync asks for the cloud password again where needed.
    </p>
  );
}

/** Merge or Replace, with what each would do; Replace asks first. */
function RestoreChoice({
  preview,
  asking,
  sending,
  onMerge,
  onAsk,
  onReplace,
}: {
  readonly preview: FullBackupPreview;
  /** Whether Replace's confirmation stands in place of the two buttons. */
  readonly asking: boolean;
  readonly sending: boolean;
  readonly onMerge: () => void;
  readonly onAsk: (asking: boolean) => void;
  readonly onReplace: () => void;
}) {
  return (
    <>
      <h3>Restore</h3>
      <p>{mergeWords(preview.merge)}</p>
      <p>{replaceWords(preview.replaceLoss)}</p>
      {!asking && (
        <div className="screen-actions">
          <IonButton disabled={sending} onClick={onMerge}>
            Merge
          </IonButton>
          <IonButton
            fill="outline"
            disabled={sending}
            onClick={() => {
              onAsk(true);
            }}
          >
            Replace
          </IonButton>
        </div>
      )}
      {asking && (
        <FullBackupConfirm
          question="Replace the data on this device with this full backup?"
          showQuestion
          confirm="Replace my data"
          busy={sending}
          onConfirm={onReplace}
          onCancel={() => {
            onAsk(false);
          }}
        >
          <p>
            What is on this device now is replaced by what the backup holds.{' '}
            {replaceWords(preview.replaceLoss)} Before anything changes, Docket saves the current
            data as a full backup of its own, so you can undo this by restoring that one. When you
            are signed in, the restored data syncs to your other devices like any other change.
          </p>
        </FullBackupConfirm>
      )}
    </>
  );
}
