import { IonButton } from '@ionic/react';
import { deviceHoldsData, type DeviceDataSummary } from '@docket/core/device';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  removeEveryDatabase,
  setUnownedDataGoesToNextAccount,
  unownedDataGoesToNextAccount,
} from '../local-store/account-databases.ts';
import { readDeviceHoldings, type DeviceHoldings } from '../local-store/device-holdings.ts';
import { plural } from '../ui/formatting.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { accountsWords, clearDeviceMessage, unsyncedOf } from './clear-device-words.ts';
import { deviceDataWords } from './device-data-words.ts';
import './device-data.css';
import { useAlert } from '../ui/lazy-overlays.ts';

// On the sign-in page, signed out: each account that signed in here keeps its work on the device
// (locked: only signing in to it opens it), and data made signed out belongs to no account yet.
// On a shared computer the next person should know, and be able to clear it all.

/** The accounts whose work the device keeps, locked. */
function HeldAccounts(props: {
  readonly accounts: readonly DeviceDataSummary[];
  readonly unsynced: number;
  readonly unowned: DeviceDataSummary | null;
}) {
  const { accounts, unsynced, unowned } = props;
  return (
    <p>
      It keeps {accountsWords(accounts)}
      {unsynced > 0 && unowned === null ? `, with ${plural(unsynced, 'unsynced change')}` : ''},
      locked:{' '}
      {accounts.length === 1
        ? 'only signing in to that account opens it.'
        : 'only signing in to an account opens its work.'}
    </p>
  );
}

/** The data no account owns yet: how to keep it, and whether the next account takes it. */
function UnownedData(props: {
  readonly unowned: DeviceDataSummary;
  readonly goesOn: boolean;
  readonly onGoesOnChange: (goesOn: boolean) => void;
}) {
  const { unowned, goesOn, onGoesOnChange } = props;
  return (
    <>
      <p>
        It holds data no account owns yet: {deviceDataWords(unowned)}
        {unowned.unsynced > 0 ? `, with ${plural(unowned.unsynced, 'unsynced change')}` : ''}. On a
        shared computer, <Link to="/add-full-backup">make a full backup</Link> to keep it, or clear
        it.
      </p>
      <label className="device-data-give">
        <input
          type="checkbox"
          checked={goesOn}
          onChange={(event) => {
            onGoesOnChange(event.target.checked);
          }}
        />{' '}
        Give it to the next account that signs in here
      </label>
    </>
  );
}

export function DeviceDataNotice() {
  const [holdings, setHoldings] = useState<DeviceHoldings | null>(null);
  const [presentAlert] = useAlert();
  const toast = useStatusToast();
  const [clearing, setClearing] = useState(false);
  const [unownedGoesOn, setUnownedGoesOn] = useState(unownedDataGoesToNextAccount);

  const read = useCallback(() => {
    readDeviceHoldings().then(setHoldings, (error: unknown) => {
      console.error('[docket] Could not read what the device holds:', error);
    });
  }, []);
  useEffect(read, [read]);

  if (holdings === null) return null;
  const unowned =
    holdings.unowned !== null && deviceHoldsData(holdings.unowned) ? holdings.unowned : null;
  if (holdings.accounts.length === 0 && unowned === null) return null;

  const clear = () => {
    setClearing(true);
    removeEveryDatabase()
      .then(
        () => {
          toast.done('This device is cleared.');
        },
        (error: unknown) => {
          toast.failed(
            `The device could not be cleared: ${error instanceof Error ? error.message : String(error)}`,
          );
        },
      )
      .finally(() => {
        setClearing(false);
        read();
      });
  };
  const ask = () => {
    presentAlert({
      header: 'Clear this device?',
      message: clearDeviceMessage(holdings, unowned),
      buttons: [
        { text: 'Cancel', role: 'cancel' },
        { text: 'Clear device', role: 'destructive', handler: clear },
      ],
    }).catch((error: unknown) => {
      console.error('Could not ask before clearing the device', error);
    });
  };

  return (
    <section className="device-data-notice" aria-labelledby="device-data-heading">
      <h2 id="device-data-heading">This device holds Docket data</h2>
      {holdings.accounts.length > 0 ? (
        <HeldAccounts
          accounts={holdings.accounts}
          unsynced={unsyncedOf(holdings)}
          unowned={unowned}
        />
      ) : null}
      {unowned === null ? null : (
        <UnownedData
          unowned={unowned}
          goesOn={unownedGoesOn}
          onGoesOnChange={(goesOn) => {
            setUnownedDataGoesToNextAccount(goesOn);
            setUnownedGoesOn(goesOn);
          }}
        />
      )}
      <IonButton size="small" fill="outline" color="danger" disabled={clearing} onClick={ask}>
        Clear this device
      </IonButton>
    </section>
  );
}
