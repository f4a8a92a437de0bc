import { IonButton } from '@ionic/react';
import { useParams } from 'react-router-dom';
import { BackupContentsView } from '../backups/backup-contents-view.tsx';
import { BackupKeyNotice } from '../backups/backup-key-notice.tsx';
import { useBackupKeys } from '../backups/backup-keys.ts';
import { formatWhen } from '../backups/backup-words.ts';
import { formatSize } from '../ui/formatting.ts';
import '../backups/backups.css';
import { useOpenedBackup } from '../backups/use-opened-backup.ts';
import '../ui/forms.css';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';

/** What a backup holds, decrypted on this device; nothing local is read or changed. */
export function BackupPreviewScreen() {
  const { id } = useParams();
  const keys = useBackupKeys();
  const opened = useOpenedBackup(id, keys);
  const encoded = encodeURIComponent(id ?? '');
  return (
    <>
      <PageHeader title="Backup preview" backHref="/tabs/backups" />
      <PageBody>
        <BackupKeyNotice keys={keys} />
        {keys.status === 'ready' &&
          (opened.status === 'loading' ? (
            <>
              <h1>Backup preview</h1>
              <p role="status">Opening the backup…</p>
            </>
          ) : opened.status === 'failed' ? (
            <>
              <h1>Backup preview</h1>
              <p className="backup-error" role="alert">
                {opened.message}
              </p>
            </>
          ) : (
            <>
              <h1 dir="auto" className="backup-text">
                {opened.backup.metadata.name}
              </h1>
              {opened.backup.metadata.description !== '' && (
                <p className="backup-text" dir="auto">
                  {opened.backup.metadata.description}
                </p>
              )}
              <p>
                Made {formatWhen(opened.backup.summary.createdAt)} ·{' '}
                {formatSize(opened.backup.summary.size)} encrypted
              </p>
              <div className="screen-actions">
                <IonButton routerLink={`/restore?backup=${encoded}`}>Restore…</IonButton>
                <IonButton routerLink={`/backup-link/${encoded}`} fill="outline">
                  Share as a link
                </IonButton>
              </div>
              <BackupContentsView contents={opened.backup.contents} />
            </>
          ))}
      </PageBody>
    </>
  );
}
