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
        <form className="full-backup-form" onSubmit={open} noValidate>
          <p>This full backup is protected by a passphrase. Enter it to see what it holds.</p>
          <TextField
            label="Passphrase"
            type="password"
            value={passphrase}
            autocomplete="current-password"
            onChange={setPassphrase}
          />
          {phase.error !== null && (
            <p className="field-error" role="alert">
              {phase.error}
            </p>
          )}
          <div>
            <IonButton type="submit" disabled={opening || passphrase === ''}>
              Open
            </IonButton>
          </div>
          {opening && <p role="status">Checking the passphrase…</p>}
        </form>
      );
    case 'account-password':
      return (
        <form className="full-backup-form" onSubmit={open} noValidate>
          <p>
            This full backup holds an account’s work that was locked on its device. Enter that
            account’s password to see what it holds.
          </p>
          <TextField
            label="Account password"
            type="password"
            value={accountPassword}
            autocomplete="current-password"
            onChange={setAccountPassword}
          />
          {phase.error !== null && (
            <p className="field-error" role="alert">
              {phase.error}
            </p>
          )}
          <div>
            <IonButton type="submit" disabled={opening || accountPassword === ''}>
              Open
            </IonButton>
          </div>
          {opening && <p role="status">Checking the password…</p>}
        </form>
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
  const { manifest } = preview;
  const [asking, setAsking] = useState(false);
  const { busy: sending, error: failure, setError: setFailure, run } = useCommand();
  const [job, setJob] = useState<{ id: string; mode: RestoreMode } | null>(null);
  const held = preview.tables.filter(({ rows }) => rows > 0);

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

  return (
    <section className="full-backup-section" aria-labelledby="full-backup-contents">
      <h2 id="full-backup-contents">What this full backup holds</h2>
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
      {manifest.scope === 'user-data' ? (
        <p>
          Sync made this backup of your own work (tags, positions, decisions, annotations and
          datasets) before it replaced them. Merging or replacing touches only those; bills and
          everything else stay as they are.
        </p>
      ) : (
        <p>
          Device secrets are never in a full backup: the cloud password&rsquo;s keys stay on the
          device that made them
          {manifest.skippedSettings > 0 &&
            ` (${plural(manifest.skippedSettings, 'setting')} left out)`}
          . After a restore, sync asks for the cloud password again where needed.
        </p>
      )}

      {job === null && (
        <>
          <h3>Restore</h3>
          <p>{mergeWords(preview.merge)}</p>
          <p>{replaceWords(preview.replaceLoss)}</p>
        </>
      )}
      {job === null && !asking && (
        <div className="screen-actions">
          <IonButton
            disabled={sending}
            onClick={() => {
              restore('merge');
            }}
          >
            Merge
          </IonButton>
          <IonButton
            fill="outline"
            disabled={sending}
            onClick={() => {
              setAsking(true);
            }}
          >
            Replace
          </IonButton>
        </div>
      )}
      {job === null && asking && (
        <FullBackupConfirm
          question="Replace the data on this device with this full backup?"
          showQuestion
          confirm="Replace my data"
          busy={sending}
          onConfirm={() => {
            restore('replace');
          }}
          onCancel={() => {
            setAsking(false);
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
