import { useIonRouter } from '@ionic/react';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import '../ui/forms.css';
import { CreateFullBackupForm } from '../full-backups/create-full-backup-form.tsx';
import {
  FullBackupActions,
  FullBackupFacts,
  FullBackupList,
} from '../full-backups/full-backup-list.tsx';
import { FullBackupPreviewPanel } from '../full-backups/full-backup-preview-panel.tsx';
import { LockedAccountsBackup } from '../full-backups/locked-accounts-backup.tsx';
import { SignedOutBackupPassphrase } from '../full-backups/signed-out-backup-passphrase.tsx';
import type { FullBackupSource } from '../full-backup-worker/full-backup-runner.ts';
import { useFullBackupEntry } from '../local-store/live-full-backups.ts';
import '../full-backups/full-backups.css';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';

const LIST_PATH = '/add-full-backup';

/**
 * Open to everyone: a full backup rescues the data of a device that is signed out, offline or
 * about to be reset. /add-full-backup makes one, lists the device's (the automatic ones too)
 * and restores from a picked file; /add-full-backup/:id is one of them.
 */
export function AddFullBackupScreen() {
  const { id } = useParams();
  return id === undefined ? <FullBackupsHome /> : <OneFullBackup id={id} />;
}

function FullBackupsHome() {
  return (
    <>
      <PageHeader title="Full backups" backHref="/tabs/more" />
      <PageBody>
        <h1>Full backups</h1>
        <p>
          A full backup is one file of everything on this device: bills, datasets with their files,
          your tags, positions, decisions and annotations, jobs and settings. Keep it to rescue your
          data, or to move it to another device.
        </p>
        <section className="full-backup-section" aria-labelledby="full-backup-new">
          <h2 id="full-backup-new">New full backup</h2>
          <CreateFullBackupForm />
        </section>
        <LockedAccountsBackup />
        <SignedOutBackupPassphrase />
        <section className="full-backup-section" aria-labelledby="full-backup-list">
          <h2 id="full-backup-list">On this device</h2>
          <FullBackupList />
        </section>
        <section className="full-backup-section" aria-labelledby="full-backup-file">
          <h2 id="full-backup-file">Restore from a file</h2>
          <RestoreFromFile />
        </section>
      </PageBody>
    </>
  );
}

/** The "File" field: a downloaded full backup, previewed here before anything is restored. */
function RestoreFromFile() {
  const [file, setFile] = useState<File | null>(null);
  const source = useMemo<FullBackupSource | null>(
    () => (file === null ? null : { kind: 'file', file, name: file.name }),
    [file],
  );
  return (
    <>
      <div className="file-field">
        <label htmlFor="full-backup-file-input">File</label>
        <input
          id="full-backup-file-input"
          type="file"
          accept=".docket-backup,application/octet-stream,application/gzip"
          aria-describedby="full-backup-file-hint"
          onChange={(event) => {
            setFile(event.currentTarget.files?.[0] ?? null);
          }}
        />
        <p id="full-backup-file-hint" className="field-hint">
          A .docket-backup file you downloaded. Docket shows what it holds before it restores
          anything.
        </p>
      </div>
      {source !== null && file !== null && (
        <FullBackupPreviewPanel
          key={`${file.name} ${file.lastModified}`}
          source={source}
          label={file.name}
        />
      )}
    </>
  );
}

function OneFullBackup({ id }: { readonly id: string }) {
  const backup = useFullBackupEntry(id);
  const router = useIonRouter();
  return (
    <>
      <PageHeader title="Full backup" backHref={LIST_PATH} />
      <PageBody>
        <h1>Full backup</h1>
        {backup === undefined ? (
          <p role="status">Loading the full backup…</p>
        ) : backup === null ? (
          <p>
            There is no full backup with this id on this device.{' '}
            <Link to={LIST_PATH}>See the full backups on this device</Link>.
          </p>
        ) : (
          <section className="record-card" aria-labelledby="full-backup-name">
            <h2 id="full-backup-name">{backup.name}</h2>
            <FullBackupFacts backup={backup} />
            <FullBackupActions
              backup={backup}
              onDeleted={() => {
                router.push(LIST_PATH, 'back', 'replace');
              }}
            />
          </section>
        )}
      </PageBody>
    </>
  );
}
