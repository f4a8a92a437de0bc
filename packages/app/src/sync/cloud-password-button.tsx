import { IonButton, IonSpinner, useIonAlert } from '@ionic/react';
import type { SyncSettings } from '@docket/protocol/sync-settings';
import { useState } from 'react';
import { ApiRequestError } from '../api/api-client.ts';
import { useAppServices } from '../app-services.ts';
import { useAppState } from '../state/use-app-state.ts';
import { prepareResetUpload } from '@docket/core/sync-reset';
import { billCommandContext } from '../bills/bill-command-services.ts';
import { cloudKeys } from './cloud-key-client.ts';
import {
  loadDeviceCloudKeys,
  saveDeviceCloudKeys,
  type DeviceCloudKeys,
} from './cloud-keys-store.ts';
import {
  applyEnteredPassword,
  CloudPasswordError,
  resetCloudPassword,
  cloudPasswordMode,
  fetchSyncSettings,
  type CloudPasswordMode,
} from './cloud-password-flow.ts';
import { CloudPasswordModal } from './cloud-password-modal.tsx';
import type { PasswordModalResult } from './cloud-password-words.ts';

const titles: Record<CloudPasswordMode, { title: string; subtitle: string }> = {
  set: {
    title: 'Set a cloud password',
    subtitle:
      'Your data is encrypted on this device with a key only this password opens. Docket cannot recover it: keep it somewhere safe.',
  },
  enter: {
    title: 'Enter your cloud password',
    subtitle: 'Enter the cloud password you set on your other device.',
  },
  change: {
    title: 'Change cloud password',
    subtitle: 'Enter a new cloud password. Your other devices ask for it when they next sync.',
  },
};

interface Opened {
  readonly settings: SyncSettings;
  readonly keys: DeviceCloudKeys | null;
  readonly userId: string;
}

/** The More tab's "Cloud password": sets, enters or changes it through spec §2's modal. */
export function CloudPasswordButton() {
  const { api, sync } = useAppServices();
  const userId = useAppState((state) => state.user?.id ?? null);
  const [presentAlert] = useIonAlert();
  const [working, setWorking] = useState(false);
  const [opened, setOpened] = useState<Opened | null>(null);

  const notify = (header: string, message: string) =>
    presentAlert({ header, message, buttons: ['OK'] });
  const failed = (error: unknown) => {
    const message =
      error instanceof CloudPasswordError || error instanceof ApiRequestError
        ? error.message
        : 'Something went wrong. Try again.';
    if (!(error instanceof CloudPasswordError || error instanceof ApiRequestError)) {
      console.error('[docket] Cloud password:', error);
    }
    return notify('Cloud password', message);
  };

  const open = async () => {
    if (userId === null) {
      await notify(
        'Cloud password',
        'The cloud password needs a connection to the Docket server. Connect and try again.',
      );
      return;
    }
    try {
      const [settings, keys] = await Promise.all([
        fetchSyncSettings(api),
        loadDeviceCloudKeys(userId),
      ]);
      setOpened({ settings, keys, userId });
    } catch (error) {
      await failed(error);
    }
  };

  const onResult = async (result: PasswordModalResult) => {
    const current = opened;
    setOpened(null);
    if (current === null || result.status === 'none') return;
    // An inline status, not a loading overlay: an overlay presented while the modal is still
    // dismissing can leave the page hidden from assistive technology.
    setWorking(true);
    // Entered, not yet checked against the verifier: spec §4's have-password, while Argon2id runs.
    const checking =
      result.status === 'entered' && cloudPasswordMode(current.settings, current.keys) === 'enter';
    if (checking) sync.passwordHeld(result.password);
    try {
      const deps = {
        api,
        keys: cloudKeys,
        saveKeys: (keys: DeviceCloudKeys) => saveDeviceCloudKeys(current.userId, keys),
      };
      const said =
        result.status === 'reset'
          ? await resetCloudPassword(
              {
                ...deps,
                makeTruth: async (written) => {
                  const context = await billCommandContext();
                  await prepareResetUpload(context.store, {
                    userId: current.userId,
                    deviceId: context.deviceId,
                    epoch: written.keyEpoch,
                    epochStartSeqno: written.epochStartSeqno,
                    nowMs: Date.now(),
                  });
                },
              },
              current.settings,
              result.password,
            )
          : await applyEnteredPassword(deps, current.settings, current.keys, result.password);
      setWorking(false);
      sync.passwordEntered(
        result.password,
        cloudPasswordMode(current.settings, current.keys) === 'change',
      );
      await notify('Cloud password', said);
    } catch (error) {
      setWorking(false);
      if (checking) sync.passwordRejected();
      await failed(error);
    }
  };

  const mode = opened === null ? 'set' : cloudPasswordMode(opened.settings, opened.keys);
  return (
    <>
      <IonButton
        expand="block"
        fill="outline"
        disabled={working}
        onClick={() => {
          open().catch((error: unknown) => {
            console.error('[docket] Cloud password:', error);
          });
        }}
      >
        Cloud password
      </IonButton>
      <p role="status" className="cloud-password-status">
        {working && (
          <>
            <IonSpinner name="dots" aria-hidden="true" /> Working with your keys…
          </>
        )}
      </p>
      <CloudPasswordModal
        isOpen={opened !== null}
        title={titles[mode].title}
        subtitle={titles[mode].subtitle}
        passwordExists={mode !== 'set'}
        // A reset is for a device that does not know the password (PRODUCT.md): one that has
        // it changes it instead.
        allowReset={mode === 'enter'}
        confirmReset={() =>
          new Promise<boolean>((resolve) => {
            presentAlert({
              header: 'Reset cloud password?',
              message: "Your other devices will revert to this device's data when they next sync.",
              buttons: [
                {
                  text: 'Cancel',
                  role: 'cancel',
                  handler: () => {
                    resolve(false);
                  },
                },
                {
                  text: 'Confirm',
                  role: 'confirm',
                  handler: () => {
                    resolve(true);
                  },
                },
              ],
            }).catch(() => {
              resolve(false);
            });
          })
        }
        onResult={(result) => {
          onResult(result).catch((error: unknown) => {
            console.error('[docket] Cloud password:', error);
          });
        }}
      />
    </>
  );
}
