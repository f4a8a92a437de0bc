import { IonButton } from '@ionic/react';
import { useEffect, useState } from 'react';
import { fullBackups } from '../full-backup-worker/full-backup-client.ts';
import {
  accountDatabaseEntries,
  docketDatabaseNames,
  isBeingRemoved,
} from '../local-store/account-databases.ts';
import { useAppState } from '../state/use-app-state.ts';
import { plural } from '../ui/formatting.ts';
import { useCommand } from '../ui/use-command.ts';
import { FullBackupJobStatus } from './full-backup-job-status.tsx';

// Signed out, each account that keeps its work on this browser has it locked (issue 38). A
// backup made here holds only what no account owns; each locked account's work can still be
// saved, as it is stored: its private rows stay sealed in the file, and only that account's
// password opens them again (core's full-backup-format.ts, `lockedAccount`). Accounts are
// numbered, never named: who they are is theirs.

interface LockedAccount {
  readonly accountId: string;
  readonly database: string;
  readonly number: number;
}

function useLockedAccounts(): readonly LockedAccount[] {
  const signedIn = useAppState((state) => state.user !== null);
  const [locked, setLocked] = useState<readonly LockedAccount[]>([]);
  useEffect(() => {
    if (signedIn) return;
    let current = true;
    docketDatabaseNames().then(
      (present) => {
        const names = new Set(present);
        const accounts = accountDatabaseEntries()
          .filter(({ database }) => names.has(database) && !isBeingRemoved(database))
          .map((account, index) => ({ ...account, number: index + 1 }));
        if (current) setLocked(accounts);
      },
      (error: unknown) => {
        console.error('[docket] Could not list the accounts kept on this device:', error);
      },
    );
    return () => {
      current = false;
    };
  }, [signedIn]);
  return signedIn ? [] : locked;
}

/** "Locked work": the accounts kept locked here, each with "Back up locked account N". */
export function LockedAccountsBackup() {
  const locked = useLockedAccounts();
  if (locked.length === 0) return null;
  return (
    <section className="full-backup-section" aria-labelledby="full-backup-locked">
      <h2 id="full-backup-locked">Locked work</h2>
      <p className="form-notice" role="note">
        {locked.length === 1
          ? 'The work of 1 account is kept locked on this device and is not in a backup made here.'
          : `The work of ${String(locked.length)} accounts is kept locked on this device and is not in a backup made here.`}{' '}
        Back it up as it is: the file stays locked, and only that account’s password opens it.
      </p>
      <ul className="full-backup-locked">
        {locked.map((account) => (
          <li key={account.database}>
            <LockedAccountBackup account={account} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function LockedAccountBackup({ account }: { readonly account: LockedAccount }) {
  const { busy, error, setError, run } = useCommand();
  const [job, setJob] = useState<{ id: string; name: string } | null>(null);
  const title = `Locked account ${String(account.number)}`;
  const backUp = () => {
    void run(
      (failure) => (failure instanceof Error ? failure.message : String(failure)),
      async () => {
        const name = `${title} ${new Date().toLocaleDateString('en-CA')}`;
        const answer = await fullBackups().createLocked(
          { name, passphrase: '', confirmation: '' },
          { database: account.database, accountId: account.accountId },
        );
        if (answer.ok) setJob({ id: answer.jobId, name });
        else setError(answer.message);
      },
    );
  };
  return (
    <>
      <IonButton fill="outline" disabled={busy} onClick={backUp}>
        Back up {title.toLowerCase()}
      </IonButton>
      {error !== null && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {job !== null && (
        <FullBackupJobStatus
          key={job.id}
          jobId={job.id}
          label={`Full backup: ${job.name}`}
          doneText={(done) =>
            `Created the full backup "${job.name}" (${plural(done.progress.written, 'row')}), locked: it opens with that account’s password.`
          }
        />
      )}
    </>
  );
}
