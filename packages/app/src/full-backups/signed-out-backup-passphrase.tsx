import { IonButton } from '@ionic/react';
import { checkPassphrase } from '@docket/core/crypto';
import { useEffect, useId, useState, type SyntheticEvent } from 'react';
import { activeDatabaseName } from '../local-store/account-databases.ts';
import { useAppState } from '../state/use-app-state.ts';
import { TextField } from '../ui/text-field.tsx';
import { useCommand } from '../ui/use-command.ts';

// Signed out, an account's work on this browser is locked, and a full backup of it opens with
// that account's password (locked-accounts-backup.tsx). Whoever keeps such a file may not know
// the password, or the password may change; so, while signed in, the account may set a
// passphrase that opens those backups too: the vault's key wrapped a second time under it, in a
// file beside the lock (local-store/device-vault.ts, `setBackupPassphrase`). It goes with the
// account when the account is removed from the device.

const deviceVault = () => import('../local-store/device-vault.ts');

/** Whether this device keeps a passphrase's copy of the account's key; null while reading. */
function usePassphraseSet(userId: string | null): [boolean | null, (set: boolean) => void] {
  const [set, setSet] = useState<boolean | null>(null);
  useEffect(() => {
    if (userId === null) return;
    let current = true;
    deviceVault()
      .then(({ readPassphraseMaterial }) => readPassphraseMaterial(activeDatabaseName()))
      .then(
        (material) => {
          if (current) setSet(material !== null);
        },
        (error: unknown) => {
          console.error('[docket] Could not read the backup passphrase’s state:', error);
          if (current) setSet(false);
        },
      );
    return () => {
      current = false;
    };
  }, [userId]);
  return [set, setSet];
}

function refusal(failure: unknown): string {
  return failure instanceof Error ? failure.message : String(failure);
}

/** "Passphrase for backups made while signed out": set, replaced, or removed. Signed in only. */
export function SignedOutBackupPassphrase() {
  const userId = useAppState((state) => state.user?.id ?? null);
  const [set, setSet] = usePassphraseSet(userId);
  const [passphrase, setPassphrase] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [said, setSaid] = useState<string | null>(null);
  const { busy, error, run } = useCommand();
  const hintId = useId();
  if (userId === null || set === null) return null;

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setSaid(null);
    void run(refusal, async () => {
      checkPassphrase(passphrase);
      if (passphrase !== confirmation) {
        throw new Error('The two passphrases are not the same.');
      }
      const { setBackupPassphrase } = await deviceVault();
      await setBackupPassphrase(activeDatabaseName(), userId, passphrase);
      setPassphrase('');
      setConfirmation('');
      setSet(true);
      setSaid(
        'The passphrase is set: a full backup of your work made while you are signed out opens with it or with your password.',
      );
    });
  };

  const remove = () => {
    setSaid(null);
    void run(refusal, async () => {
      const { removeBackupPassphrase } = await deviceVault();
      await removeBackupPassphrase(activeDatabaseName());
      setSet(false);
      setSaid(
        'The passphrase is removed: backups made while you are signed out open with your password only.',
      );
    });
  };

  return (
    <section className="full-backup-section" aria-labelledby="signed-out-passphrase">
      <h2 id="signed-out-passphrase">Backups made while you are signed out</h2>
      <p id={hintId} className="field-hint">
        Signed out, your work on this device is locked, and a full backup of it opens only with your
        password. Set a passphrase to open such a backup without your password. Docket cannot
        recover a forgotten passphrase.
      </p>
      {set && <p>A passphrase is set on this device.</p>}
      <form className="full-backup-form" onSubmit={submit} noValidate>
        <TextField
          label="Passphrase for backups made while signed out"
          type="password"
          value={passphrase}
          autocomplete="new-password"
          aria-describedby={hintId}
          onChange={setPassphrase}
        />
        <TextField
          label="Repeat passphrase"
          type="password"
          value={confirmation}
          autocomplete="new-password"
          onChange={setConfirmation}
        />
        {error !== null && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        {said !== null && <p role="status">{said}</p>}
        <IonButton type="submit" disabled={busy}>
          {set ? 'Change passphrase' : 'Set passphrase'}
        </IonButton>
        {set && (
          <IonButton fill="outline" disabled={busy} onClick={remove}>
            Remove passphrase
          </IonButton>
        )}
      </form>
    </section>
  );
}
