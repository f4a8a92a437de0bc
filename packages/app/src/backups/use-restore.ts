import type { BackupContents, RestoreMode, RestorePlanSummary } from '@docket/core/backups';
import { useEffect, useState } from 'react';
import { useAlert } from '../ui/lazy-overlays.ts';
import { planRestores, restoreContents, type OpenedBackup } from './backup-actions.ts';

// The restore screen's use cases (screens/restore-screen.tsx): what Replace and Merge would
// change, worked out in the user-data worker, and a restore run as a job after a question.

export const restoreModeWords: Record<
  RestoreMode,
  { title: string; explain: string; confirm: string }
> = {
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

export type RestorePlans =
  | { readonly replace: RestorePlanSummary; readonly merge: RestorePlanSummary }
  | { readonly failed: string };

/**
 * What a restore of `contents` would change, both ways; null while it is worked out. `retry`
 * starts again from nothing, `refresh` works it out again behind what is shown (after a restore).
 */
export function useRestorePlans(contents: BackupContents | null): {
  readonly plans: RestorePlans | null;
  readonly retry: () => void;
  readonly refresh: () => void;
} {
  const [plans, setPlans] = useState<RestorePlans | null>(null);
  const [round, setRound] = useState(0);
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
  return {
    plans,
    retry: () => {
      setPlans(null);
      setRound((value) => value + 1);
    },
    refresh: () => {
      setRound((value) => value + 1);
    },
  };
}

/** Replace or Merge, after its question, as a job; `onFinished` once it ended either way. */
export function useRestoreRun(onFinished: () => void): {
  readonly running: RestoreMode | null;
  readonly outcome: { readonly ok: boolean; readonly message: string } | null;
  readonly run: (mode: RestoreMode, backup: OpenedBackup) => void;
} {
  const [running, setRunning] = useState<RestoreMode | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  const [presentAlert] = useAlert();
  const restore = (mode: RestoreMode, backup: OpenedBackup) => {
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
            message: `Restored with ${restoreModeWords[mode].title}. Your data from before is kept as the full backup “${result.safetyCopy.name}”.`,
          });
        },
        (error: unknown) => {
          setOutcome({
            ok: false,
            message:
              error instanceof Error ? error.message : 'The restore failed; nothing changed.',
          });
        },
      )
      .finally(() => {
        setRunning(null);
        onFinished();
      });
  };
  const run = (mode: RestoreMode, backup: OpenedBackup) => {
    presentAlert({
      header: `${restoreModeWords[mode].title} from “${backup.metadata.name.slice(0, 80)}”?`,
      message: restoreModeWords[mode].confirm,
      buttons: [
        { text: 'Cancel', role: 'cancel' },
        {
          text: restoreModeWords[mode].title,
          role: 'confirm',
          handler: () => {
            restore(mode, backup);
          },
        },
      ],
    }).catch((error: unknown) => {
      console.error('Could not ask before restoring', error);
    });
  };
  return { running, outcome, run };
}
