import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import '../ui/forms.css';
import { FullBackupPreviewPanel } from '../full-backups/full-backup-preview-panel.tsx';
import type { FullBackupSource } from '../full-backup-worker/full-backup-runner.ts';
import { useFullBackupEntry } from '../local-store/live-full-backups.ts';
import '../full-backups/full-backups.css';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';

/** Open to everyone: what a stored full backup holds, then restoring it after a confirmation. */
export function FullBackupPreviewScreen() {
  const { id = '' } = useParams();
  const backup = useFullBackupEntry(id);
  const source = useMemo<FullBackupSource>(() => ({ kind: 'stored', id }), [id]);
  return (
    <>
      <PageHeader title="Full backup preview" backHref="/add-full-backup" />
      <PageBody>
        <h1>Full backup preview</h1>
        {backup === undefined ? (
          <p role="status">Loading the full backup…</p>
        ) : backup === null ? (
          <p>
            There is no full backup with this id on this device.{' '}
            <Link to="/add-full-backup">See the full backups on this device</Link>.
          </p>
        ) : (
          <>
            <p>
              <strong>{backup.name}</strong>
            </p>
            <FullBackupPreviewPanel key={id} source={source} label={backup.name} />
          </>
        )}
      </PageBody>
    </>
  );
}
