import { IonButton } from '@ionic/react';
import { backupKinds, type RestoreMode, type RestorePlanSummary } from '@docket/core/backups';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { planRestores, restoreContents, type OpenedBackup } from '../backups/backup-actions.ts';
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
import { useAlert } from '../ui/lazy-overlays.ts';

const modeWords: Record<RestoreMode, { title: string; explain: string; confirm: string }> = {
  replace: {
    title: 'Replace',
    explain:
      'Your tags, tagged bills, positions, triage and annotations become exactly the backup’s: what it lacks is removed. Datasets are added or updated, never removed.',
    confirm:
      'Your current tags, positions, triage and annotations will be replaced by the backup’s. A full backup of your data is saved first.',
  },
  merge: {
    title: 'Merge',
    explain:
      'Nothing is removed. What the backup has and this device lacks is added back; where both have something, the newer change wins.',
    confirm: 'The backup will be merged into your data. A full backup of your data is saved first.',
  },
};

type Plans = { readonly replace: RestorePlanSummary; readonly merge: RestorePlanSummary };

/** /restore?backup=<id>: what a restore would change, then Replace or Merge, as a job. */
export function RestoreScreen() {
  const { search } = useLocation();
  const backupId = new URLSearchParams(search).get('backup') ?? undefined;
  const keys = useBackupKeys();
  const opened = useOpenedBackup(backupId, keys);
  const [plans, setPlans] = useState<Plans | { readonly failed: string } | null>(null);
  const [round, setRound] = useState(0);
  const [running, setRunning] = useState<RestoreMode | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  const [presentAlert] = useAlert();
  const contents = opened.status === 'open' ? opened.backup.contents : null;

  useEffect(() => {
    if (contents === null) return;
    const effect = { live: true };
    // Worked out in the user-data worker: with many bills, reading and comparing them takes a
    // while.
    planRestores(contents)
      .then((both) => {
        if (effect.live) setPlans(both);
      })
      .catch((error: unknown) => {
        console.error('Could not work out the restore', error);
        if (effect.live) {
          setPlans({
            failed: `Docket could not work out what a restore would change: ${
              error instanceof Error ? error.message : String(error)
            }. Nothing was changed.`,
          });
        }
      });
    return () => {
      effect.live = false;
    };
  }, [contents, round]);

  const run = (mode: RestoreMode, backup: OpenedBackup) => {
    presentAlert({
      header: `${modeWords[mode].title} from “${backup.metadata.name.slice(0, 80)}”?`,
      message: modeWords[mode].confirm,
      buttons: [
        { text: 'Cancel', role: 'cancel' },
        {
          text: modeWords[mode].title,
          role: 'confirm',
          handler: () => {
            setRunning(mode);
            setOutcome(null);
            restoreContents({
              contents: backup.contents,
              mode,
              subjectId: backup.summary.id,
              label: backup.metadata.name,
            })
              .then(
                (result) => {
                  setOutcome({
                    ok: true,
                    message: `Restored with ${modeWords[mode].title}. Your data from before is kept as the full backup “${result.safetyCopy.name}”.`,
                  });
                },
                (error: unknown) => {
                  setOutcome({
                    ok: false,
                    message:
                      error instanceof Error
                        ? error.message
                        : 'The restore failed; nothing changed.',
                  });
                },
              )
              .finally(() => {
                setRunning(null);
                setRound((value) => value + 1);
              });
          },
        },
      ],
    }).catch((error: unknown) => {
      console.error('Could not ask before restoring', error);
    });
  };

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
                <IonButton
                  fill="outline"
                  onClick={() => {
                    setPlans(null);
                    setRound((value) => value + 1);
                  }}
                >
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
