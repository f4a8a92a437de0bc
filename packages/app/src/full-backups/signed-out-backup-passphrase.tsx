import { IonButton } from '@ionic/react';
import { checkPassphrase } from '@docket/core/full-backups';
import { useEffect, useId, useRef, useState, type SyntheticEvent } from 'react';
import { activeDatabaseName } from '../local-store/account-databases.ts';
import { useAppState } from '../state/use-app-state.ts';
import { catchFallingFocus } from '../ui/falling-focus.ts';
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

/** The text an Ionic field holds at this moment, else the state's copy. */
function fieldText(field: HTMLIonInputElement | null, fallback: string): string {
  const value = field?.value;
  return value === undefined || value === null ? fallback : String(value);
}

function refusal(failure: unknown): string {
  return failure instanceof Error ? failure.message : String(failure);
}

/**
 * The passphrase form: its two fields (each with the Ionic field it is read from), the section
 * and hint they sit in, what it last said, and its commands, which set or change the passphrase
 * and remove it.
 */
function usePassphraseForm(setSet: (set: boolean) => void) {
  const [passphrase, setPassphrase] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [said, setSaid] = useState<string | null>(null);
  const { busy, error, run } = useCommand();
  const hintId = useId();
  const section = useRef<HTMLElement>(null);
  const passphraseField = useRef<HTMLIonInputElement>(null);
  const confirmationField = useRef<HTMLIonInputElement>(null);

  /** Sets the passphrase for `userId`'s backups made while signed out. */
  const submit = (event: SyntheticEvent, userId: string) => {
    event.preventDefault();
    setSaid(null);
    // What the fields hold now: Enter pressed right after the last keystroke can come before
    // React has applied that keystroke's state (Ionic's input event is not a discrete one).
    const typed = fieldText(passphraseField.current, passphrase);
    const repeated = fieldText(confirmationField.current, confirmation);
    void run(refusal, async () => {
      checkPassphrase(typed);
      if (typed !== repeated) {
        throw new Error('The two passphrases are not the same.');
      }
      const { setBackupPassphrase } = await deviceVault();
      await setBackupPassphrase(activeDatabaseName(), userId, typed);
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
      // "Remove passphrase" goes with it: the focus goes to the passphrase field, not the page.
      catchFallingFocus(() => section.current?.querySelector('input') ?? null);
      setSet(false);
      setSaid(
        'The passphrase is removed: backups made while you are signed out open with your password only.',
      );
    });
  };

  return {
    passphrase,
    setPassphrase,
    confirmation,
    setConfirmation,
    said,
    busy,
    error,
    hintId,
    section,
    passphraseField,
    confirmationField,
    submit,
    remove,
  };
}

/** "Passphrase for backups made while signed out": set, replaced, or removed. Signed in only. */
export function SignedOutBackupPassphrase() {
  const userId = useAppState((state) => state.user?.id ?? null);
  const [set, setSet] = usePassphraseSet(userId);
  const {
    passphrase,
    setPassphrase,
    confirmation,
    setConfirmation,
    said,
    busy,
    error,
    hintId,
    section,
    passphraseField,
    confirmationField,
    submit,
    remove,
  } = usePassphraseForm(setSet);
  if (userId === null || set === null) return null;

  return (
    <section ref={section} className="full-backup-section" aria-labelledby="signed-out-passphrase">
      <h2 id="signed-out-passphrase">Backups made while you are signed out</h2>
      <p id={hintId} className="field-hint">
        Signed out, your work on this device is locked, and a full backup of it opens only with your
        password. Set a passphrase to open such a backup without your password. Docket cannot
        recover a forgotten passphrase.
      </p>
      {set && <p>A passphrase is set on this device.</p>}
      <form
        className="full-backup-form"
        onSubmit={(event) => {
          submit(event, userId);
        }}
        noValidate
      >
        <TextField
          ref={passphraseField}
          label="Passphrase for backups made while signed out"
          type="password"
          value={passphrase}
          autocomplete="new-password"
          aria-describedby={hintId}
          onChange={setPassphrase}
        />
        <TextField
          ref={confirmationField}
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
        {/* In the page from the start, so a screen reader hears what is put in it. */}
        <p role="status" className="full-backup-status">
          {said ?? ''}
        </p>
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
