import { IonButton, useIonRouter, useIonViewWillEnter } from '@ionic/react';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppServices } from '../services/app-services.ts';
import { loadBackupList, type BackupListEntry } from '../backups/backup-actions.ts';
import { BackupKeyNotice } from '../backups/backup-key-notice.tsx';
import { BackupsElsewhere, BackupSpaceLine } from '../backups/backup-space-line.tsx';
import { useBackupKeys, type BackupKeys } from '../backups/backup-keys.ts';
import { describeCounts, formatWhen } from '../backups/backup-words.ts';
import { formatSize } from '../ui/formatting.ts';
import { deleteBackup } from '../backups/backups-api.ts';
import '../backups/backups.css';
import '../ui/forms.css';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { useFinishedJobCount } from '../local-store/live-jobs.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { useAlert } from '../ui/lazy-overlays.ts';
import { SkipToTabs } from '../layout/skip-links.tsx';

type ListState =
  | { readonly status: 'loading' }
  | { readonly status: 'failed'; readonly message: string }
  | {
      readonly status: 'loaded';
      readonly entries: readonly BackupListEntry[];
      /** Backups of the account's other spaces, listed there. */
      readonly elsewhere: number;
    };

/** Shown as a tab and as its own route; as a route it offers a way back to the tabs. */
export function BackupsScreen({ backHref }: { readonly backHref?: string }) {
  const keys = useBackupKeys();
  const ionRouter = useIonRouter();
  const { list, reload } = useBackupList(keys);
  const askDelete = useDeleteBackup(reload);

  return (
    <>
      <PageHeader title="Backups" {...(backHref === undefined ? {} : { backHref })} />
      <PageBody>
        <h1>Backups</h1>
        <SkipToTabs />
        <p>
          A backup is an encrypted snapshot of your tags, positions, triage, annotations and dataset
          definitions, with the bills they refer to, kept on the server. Only your devices can open
          it.
        </p>
        <BackupSpaceLine />
        <BackupKeyNotice keys={keys} />
        <p>
          A full backup is a file of everything on this device, kept here and downloadable, with no
          account needed.{' '}
          <IonButton routerLink="/add-full-backup" fill="outline" size="small">
            Full backups
          </IonButton>
        </p>
        {keys.status === 'ready' && (
          <>
            <div className="screen-actions">
              {/* A button, as PRODUCT.md names it, that moves on to the form. */}
              <IonButton
                onClick={() => {
                  ionRouter.push('/add-backup', 'forward', 'push');
                }}
              >
                New backup
              </IonButton>
              <IonButton routerLink="/jobs" fill="outline">
                Jobs
              </IonButton>
            </div>
            <BackupList list={list} onDelete={askDelete} />
          </>
        )}
      </PageBody>
    </>
  );
}

/** The space's backups for the signed-in account, loaded again on entry and when a job ends. */
function useBackupList(keys: BackupKeys): {
  readonly list: ListState;
  readonly reload: () => void;
} {
  const { api } = useAppServices();
  const [list, setList] = useState<ListState>({ status: 'loading' });
  const userId = keys.status === 'ready' ? keys.userId : null;
  const epoch = keys.status === 'ready' ? keys.keys.keyEpoch : null;
  // A backup made on the form (a 'backup' job finishing) shows here without a manual refresh.
  const finishedJobs = useFinishedJobCount();

  const reload = useCallback(() => {
    if (keys.status !== 'ready') return;
    loadBackupList(api, keys.userId, keys.keys).then(
      ({ entries, elsewhere }) => {
        setList({ status: 'loaded', entries, elsewhere });
      },
      (error: unknown) => {
        setList({
          status: 'failed',
          message: error instanceof Error ? error.message : 'The backups could not be loaded.',
        });
      },
    );
    // Reload when the user or the key epoch changes, not on each live-query run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, userId, epoch, finishedJobs]);
  useEffect(reload, [reload]);
  useIonViewWillEnter(reload, [reload]);
  return { list, reload };
}

/** "Delete backup?", then the backup deleted from the server with its links, and the list read again. */
function useDeleteBackup(reload: () => void): (entry: BackupListEntry) => void {
  const { api } = useAppServices();
  const toast = useStatusToast();
  const [presentAlert] = useAlert();
  return (entry: BackupListEntry) => {
    const name = entry.metadata?.name ?? 'this backup';
    presentAlert({
      header: 'Delete backup?',
      message: `“${name}” will be deleted from the server, with its public links. This cannot be undone.`,
      buttons: [
        { text: 'Cancel', role: 'cancel' },
        {
          text: 'Delete',
          role: 'destructive',
          handler: () => {
            deleteBackup(api, entry.summary.id).then(
              () => {
                toast.done(`Deleted “${name}”.`);
                reload();
              },
              (error: unknown) => {
                toast.failed(
                  error instanceof Error ? error.message : 'The backup was not deleted.',
                );
              },
            );
          },
        },
      ],
    }).catch((error: unknown) => {
      console.error('Could not ask before deleting a backup', error);
    });
  };
}

/** The space's backups, or why there are none to show. */
function BackupList({
  list,
  onDelete,
}: {
  readonly list: ListState;
  readonly onDelete: (entry: BackupListEntry) => void;
}) {
  return list.status === 'loading' ? (
    <p role="status">Loading backups…</p>
  ) : list.status === 'failed' ? (
    <p className="backup-error" role="alert">
      {list.message}
    </p>
  ) : list.entries.length === 0 ? (
    <>
      <p>No backups yet. Make one with “New backup”.</p>
      <BackupsElsewhere count={list.elsewhere} />
    </>
  ) : (
    <>
      <ul className="record-list" aria-label="Backups">
        {list.entries.map((entry) => (
          <BackupCard
            key={entry.summary.id}
            entry={entry}
            onDelete={() => {
              onDelete(entry);
            }}
          />
        ))}
      </ul>
      <BackupsElsewhere count={list.elsewhere} />
    </>
  );
}

function BackupCard({
  entry,
  onDelete,
}: {
  readonly entry: BackupListEntry;
  readonly onDelete: () => void;
}) {
  const { summary, metadata, problem } = entry;
  const headingId = `backup-${summary.id}`;
  const id = encodeURIComponent(summary.id);
  return (
    <li className="record-card" aria-labelledby={headingId}>
      <h2 id={headingId} dir="auto">
        {metadata === null ? (
          'Backup that cannot be opened'
        ) : (
          <Link to={`/backup-preview/${id}`}>{metadata.name}</Link>
        )}
      </h2>
      {metadata !== null && metadata.description !== '' && (
        <p className="backup-text" dir="auto">
          {metadata.description}
        </p>
      )}
      <dl className="record-facts">
        <dt>Made</dt>
        <dd>{formatWhen(summary.createdAt)}</dd>
        <dt>Size</dt>
        <dd>{formatSize(summary.size)}</dd>
        {metadata !== null && (
          <>
            <dt>Holds</dt>
            <dd>{describeCounts(metadata.counts)}</dd>
          </>
        )}
      </dl>
      {problem !== null && <p className="backup-error">{problem}</p>}
      <div className="screen-actions">
        {metadata !== null && (
          <>
            <IonButton size="small" fill="outline" routerLink={`/backup-preview/${id}`}>
              Preview
            </IonButton>
            <IonButton size="small" fill="outline" routerLink={`/restore?backup=${id}`}>
              Restore
            </IonButton>
            <IonButton size="small" fill="outline" routerLink={`/backup-link/${id}`}>
              Share
            </IonButton>
            <IonButton size="small" fill="outline" routerLink={`/add-backup/${id}`}>
              Rename
            </IonButton>
          </>
        )}
        <IonButton size="small" fill="outline" color="danger" onClick={onDelete}>
          Delete
        </IonButton>
      </div>
    </li>
  );
}
