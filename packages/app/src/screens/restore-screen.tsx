import { IonButton } from '@ionic/react';
import { backupKinds, type RestorePlanSummary } from '@docket/core/backups';
import { Link, useLocation } from 'react-router-dom';
import {
  restoreModeWords as modeWords,
  useRestorePlans,
  useRestoreRun,
} from '../backups/use-restore.ts';
import { BackupKeyNotice } from '../backups/backup-key-notice.tsx';
import { useBackupKeys } from '../backups/backup-keys.ts';
import { formatWhen, kindWords } from '../backups/backup-words.ts';
import '../backups/backups.css';
import { OpeningBackupStatus } from '../backups/opening-backup-status.tsx';
import { useOpenedBackup } from '../backups/use-opened-backup.ts';
import '../ui/forms.css';
import { FormError } from '../ui/form-error.tsx';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';

/** /restore?backup=<id>: what a restore would change, then Replace or Merge, as a job. */
export function RestoreScreen() {
  const { search } = useLocation();
  const backupId = new URLSearchParams(search).get('backup') ?? undefined;
  const keys = useBackupKeys();
  const opened = useOpenedBackup(backupId, keys);
  const contents = opened.status === 'open' ? opened.backup.contents : null;
  const { plans, retry, refresh } = useRestorePlans(contents);
  const { running, outcome, run } = useRestoreRun(refresh);

  return (
    <>
      <PageHeader title="Restore" backHref="/tabs/backups" />
      <PageBody>
        <h1>Restore</h1>
        <BackupKeyNotice keys={keys} />
        {keys.status !== 'ready' ? null : backupId === undefined ? (
          <p>
            Choose a backup to restore on the <Link to="/tabs/backups">Backups</Link> tab.
          </p>
        ) : opened.status !== 'open' ? (
          <OpeningBackupStatus opened={opened} />
        ) : (
          <>
            <p>
              From <strong dir="auto">{opened.backup.metadata.name}</strong>, made{' '}
              {formatWhen(opened.backup.summary.createdAt)}.
            </p>
            {plans === null ? (
              <p role="status">Working out what would change…</p>
            ) : 'failed' in plans ? (
              <>
                <FormError message={plans.failed} />
                <IonButton fill="outline" onClick={retry}>
                  Try again
                </IonButton>
              </>
            ) : (
              (['merge', 'replace'] as const).map((mode) => (
                <section key={mode} aria-labelledby={`restore-${mode}`}>
                  <h2 id={`restore-${mode}`}>{modeWords[mode].title}</h2>
                  <p>{modeWords[mode].explain}</p>
                  <PlanTable plan={plans[mode]} />
                  <IonButton
                    disabled={running !== null}
                    fill={mode === 'merge' ? 'solid' : 'outline'}
                    onClick={() => {
                      run(mode, opened.backup);
                    }}
                  >
                    {modeWords[mode].title}
                  </IonButton>
                </section>
              ))
            )}
            <p role="status" aria-live="polite">
              {running === null ? '' : 'Restoring…'}
            </p>
            {outcome !== null && (
              <p
                className={outcome.ok ? undefined : 'backup-error'}
                role={outcome.ok ? 'status' : 'alert'}
              >
                {outcome.message}
              </p>
            )}
          </>
        )}
      </PageBody>
    </>
  );
}

function PlanTable({ plan }: { readonly plan: RestorePlanSummary }) {
  if (plan.empty) return <p>Nothing would change: your data already has all of it.</p>;
  const title = plan.mode === 'merge' ? 'Merge' : 'Replace';
  return (
    <table className="backup-diff">
      <caption className="ion-text-start">What {title} would change</caption>
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col">Added</th>
          <th scope="col">Changed</th>
          <th scope="col">Removed</th>
        </tr>
      </thead>
      <tbody>
        {backupKinds.map((kind) => (
          <tr key={kind}>
            <th scope="row">{kindWords[kind]}</th>
            <td>{plan.kinds[kind].added}</td>
            <td>{plan.kinds[kind].changed}</td>
            <td>{plan.kinds[kind].removed}</td>
          </tr>
        ))}
        <tr>
          <th scope="row">Bills</th>
          <td>{plan.billsAdded}</td>
          <td>0</td>
          <td>0</td>
        </tr>
      </tbody>
    </table>
  );
}
