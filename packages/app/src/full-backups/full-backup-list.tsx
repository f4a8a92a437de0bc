import { IonButton, useIonRouter } from '@ionic/react';
import { deleteFullBackup } from '@docket/core/full-backups';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppServices } from '../services/app-services.ts';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import { formatDateTime } from '../ui/formatting.ts';
import { formatBytes } from './full-backup-words.ts';
import { saveFullBackup } from './save-full-backup.ts';
import { FullBackupConfirm } from './full-backup-confirm.tsx';
import { useCommand } from '../ui/use-command.ts';
import { useFullBackupList, type FullBackupEntry } from '../local-store/live-full-backups.ts';

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The facts of a full backup, as the list and its own page show them. */
export function FullBackupFacts({ backup }: { readonly backup: FullBackupEntry }) {
  return (
    <dl className="record-facts">
      <dt>Made</dt>
      <dd>{formatDateTime(backup.createdAt)}</dd>
      <dt>Size</dt>
      <dd>{formatBytes(backup.size)}</dd>
      <dt>Passphrase</dt>
      <dd>{backup.encrypted ? 'Yes, encrypted' : 'None, not encrypted'}</dd>
    </dl>
  );
}

/** Download, Restore and Delete (which asks first) for one full backup. */
export function FullBackupActions({
  backup,
  onDeleted,
}: {
  readonly backup: FullBackupEntry;
  readonly onDeleted?: () => void;
}) {
  const [asking, setAsking] = useState(false);
  // Not busy-locked: a download and a delete may run side by side, as before.
  const { error: failure, run } = useCommand();
  const router = useIonRouter();
  const { platform } = useAppServices();
  const download = () => {
    void run(message, () => saveFullBackup(platform, backup.id));
  };
  const remove = () => {
    void run(message, async () => {
      await deleteFullBackup(await pageLocalStore(), backup.id);
      onDeleted?.();
    });
  };
  return (
    <>
      <div className="screen-actions">
        <IonButton size="small" onClick={download}>
          Download
        </IonButton>
        {/* A button, not a link: "Restore" is an action people look for among buttons. */}
        <IonButton
          size="small"
          fill="outline"
          onClick={() => {
            router.push(`/full-backup-preview/${encodeURIComponent(backup.id)}`);
          }}
        >
          Restore
        </IonButton>
        {!asking && (
          <IonButton
            size="small"
            fill="outline"
            color="danger"
            onClick={() => {
              setAsking(true);
            }}
          >
            Delete
          </IonButton>
        )}
      </div>
      {asking && (
        <FullBackupConfirm
          question="Delete this full backup?"
          showQuestion={false}
          confirm="Delete full backup"
          size="small"
          onConfirm={remove}
          onCancel={() => {
            setAsking(false);
          }}
        >
          <p>
            Delete the full backup &ldquo;{backup.name}&rdquo; from this device? A copy you
            downloaded is not affected. This cannot be undone.
          </p>
        </FullBackupConfirm>
      )}
      {failure !== null && (
        <p className="field-error" role="alert">
          {failure}
        </p>
      )}
    </>
  );
}

/** Every full backup on this device, the automatic ones included. */
export function FullBackupList() {
  const backups = useFullBackupList();
  if (backups === undefined) return <p role="status">Loading full backups…</p>;
  if (backups.length === 0) {
    return <p>No full backups on this device yet.</p>;
  }
  return (
    <ul className="record-list" aria-label="Full backups on this device">
      {backups.map((backup) => {
        const headingId = `full-backup-${backup.id}`;
        return (
          <li key={backup.id} className="record-card" aria-labelledby={headingId}>
            <h3 id={headingId}>
              <Link to={`/add-full-backup/${encodeURIComponent(backup.id)}`}>{backup.name}</Link>
            </h3>
            <FullBackupFacts backup={backup} />
            <FullBackupActions backup={backup} />
          </li>
        );
      })}
    </ul>
  );
}
