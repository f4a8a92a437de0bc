import { useParams } from 'react-router-dom';
import { BackupKeyNotice } from '../backups/backup-key-notice.tsx';
import { BackupLinkList } from '../backups/backup-link-list.tsx';
import { useBackupKeys } from '../backups/backup-keys.ts';
import { describeCounts } from '../backups/backup-words.ts';
import '../backups/backups.css';
import { OpeningBackupStatus } from '../backups/opening-backup-status.tsx';
import { PublishLinkForm } from '../backups/publish-link-form.tsx';
import { useOpenedBackup } from '../backups/use-opened-backup.ts';
import { usePublishLink } from '../backups/use-publish-link.ts';
import '../ui/forms.css';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';

/** /backup-link/:id: publish a backup as read-only links; copy, share and revoke them. */
export function BackupLinkScreen() {
  const { id } = useParams();
  const keys = useBackupKeys();
  const opened = useOpenedBackup(id, keys);
  const publish = usePublishLink(id, opened);

  return (
    <>
      <PageHeader title="Backup link" backHref="/tabs/backups" />
      <PageBody>
        <h1>Backup link</h1>
        <BackupKeyNotice keys={keys} />
        {keys.status === 'ready' &&
          (opened.status !== 'open' ? (
            <OpeningBackupStatus opened={opened} />
          ) : (
            <>
              <p>
                Share <strong dir="auto">{opened.backup.metadata.name}</strong> (
                {describeCounts(opened.backup.metadata.counts)}) read-only with anyone who has the
                link, without them signing in. The link carries its own key after “#”, which never
                reaches the server: the server keeps only encrypted bytes. Your dataset sources are
                not shared.
              </p>
              <PublishLinkForm publish={publish} />
              <h2>Links</h2>
              <BackupLinkList publish={publish} />
            </>
          ))}
      </PageBody>
    </>
  );
}
