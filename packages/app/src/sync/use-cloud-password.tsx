import { prepareResetUpload } from '@docket/core/sync';
import type { SyncSettings } from '@docket/protocol/sync-settings';
import { useRef, useState, type ReactNode } from 'react';
import { ApiRequestError } from '../api/api-client.ts';
import { fetchTermsAcceptance } from '../api/terms-api.ts';
import { useAppServices } from '../services/app-services.ts';
import { billCommandContext } from '../bills/bill-command-services.ts';
import { useAppState } from '../state/use-app-state.ts';
import { needsAcceptance } from '../terms/terms-acceptance.ts';
import { TermsPromptModal } from '../terms/terms-prompt-modal.tsx';
import { cloudKeys } from '../cloud-key-worker/cloud-key-client.ts';
import {
  loadDeviceCloudKeys,
  saveDeviceCloudKeys,
  type DeviceCloudKeys,
} from './cloud-keys-store.ts';
import {
  applyEnteredPassword,
  CloudPasswordError,
  cloudPasswordMode,
  cloudPasswordStepWords,
  countUnreceived,
  fetchSyncSettings,
  resetCloudPassword,
  type CloudPasswordMode,
  type CloudPasswordProgress,
} from './cloud-password-flow.ts';
import { CloudPasswordModal, type CloudPasswordWork } from './cloud-password-modal.tsx';
import type { PasswordModalResult, UnreceivedCount } from './cloud-password-words.ts';
import { useAlert } from '../ui/lazy-overlays.ts';
import { catchFallingFocus, visibleScreenHeading } from '../ui/falling-focus.ts';
import { useStatusToast } from '../toasts/status-toast.ts';

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

const DERIVE_DETAIL =
  'Argon2id makes every guess at your password slow, so this takes a few seconds, longer on a busy device.';

function workOf(progress: CloudPasswordProgress): CloudPasswordWork {
  return {
    label: cloudPasswordStepWords[progress.step],
    index: progress.index,
    count: progress.count,
    ...(progress.step === 'derive' ? { detail: DERIVE_DETAIL } : {}),
  };
}

/** The control that opened the sheet, and the group it sits in (More's sync buttons). */
interface Opener {
  readonly control: HTMLElement;
  readonly group: HTMLElement | null;
}

/** The focusable part of `element`: an Ionic button's native button inside its shadow root. */
function focusablePart(element: HTMLElement): HTMLElement {
  return element.shadowRoot?.querySelector<HTMLElement>('button, a[href], input') ?? element;
}

function usable(element: HTMLElement): boolean {
  return (
    element.isConnected &&
    !element.hasAttribute('disabled') &&
    (element as { disabled?: boolean }).disabled !== true &&
    element.closest('[hidden]') === null
  );
}

/**
 * Where focus goes back once the sheet has closed: the control that opened it; when that went
 * away or was disabled meanwhile ("Set up sync" once a password exists, "Sync now" while the
 * sync it started runs), the first usable control beside it; else the screen's heading.
 */
function returnTarget(opener: Opener | null): HTMLElement | null {
  if (opener === null) return visibleScreenHeading();
  if (usable(opener.control)) return focusablePart(opener.control);
  const beside = Array.from(
    opener.group?.querySelectorAll<HTMLElement>('ion-button, button, a[href], input') ?? [],
  ).find(usable);
  return beside === undefined ? visibleScreenHeading() : focusablePart(beside);
}

interface Opened {
  readonly settings: SyncSettings;
  readonly keys: DeviceCloudKeys | null;
  readonly userId: string;
}

/**
 * The cloud password, from any button that needs it ("Cloud password", "Set up sync", "Sync now"
 * while the password is needed): the terms first when the user has not accepted them, then spec
 * §2's modal, kept open while the work after Go runs (each step said), with a refusal under the
 * field. `open` starts it; `element` renders the modals.
 */
export function useCloudPassword(): {
  readonly open: () => Promise<void>;
  readonly opening: boolean;
  readonly element: ReactNode;
} {
  const { api, sync } = useAppServices();
  const userId = useAppState((state) => state.user?.id ?? null);
  const online = useAppState((state) => state.online);
  const [presentAlert] = useAlert();
  const toast = useStatusToast();
  const [opening, setOpening] = useState(false);
  const [opened, setOpened] = useState<Opened | null>(null);
  const [terms, setTerms] = useState<{ opened: Opened; version: string } | null>(null);
  const [working, setWorking] = useState<CloudPasswordWork | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [unreceived, setUnreceived] = useState<UnreceivedCount | null>(null);
  // Which count is the latest: an answer to an earlier opening of the reset view is dropped.
  const countRun = useRef(0);
  // What the work after Go did, said as a status toast once the sheet has finished closing
  // (issue 40: no dialog to dismiss with OK): shown earlier, it would sit over the leaving
  // sheet's footer for part of its few seconds. Each sentence repeats what the sheet said before
  // Go (the subtitle, the reset view and its Confirm): nothing in it asks for an answer.
  const noticeAfterClose = useRef<string | null>(null);
  // Taken as a button asks for the sheet, to give focus back once it has closed.
  const opener = useRef<Opener | null>(null);

  const notify = (header: string, message: string) =>
    presentAlert({ header, message, buttons: ['OK'] });

  const open = async () => {
    if (userId === null) {
      await notify(
        'Cloud password',
        'The cloud password needs a connection to the Docket server. Connect and try again.',
      );
      return;
    }
    const active = document.activeElement;
    opener.current =
      active instanceof HTMLElement && active !== document.body
        ? { control: active, group: active.parentElement }
        : null;
    setOpening(true);
    try {
      const [settings, keys, acceptance] = await Promise.all([
        fetchSyncSettings(api),
        loadDeviceCloudKeys(userId),
        fetchTermsAcceptance(api),
      ]);
      const next = { settings, keys, userId };
      setError(null);
      if (needsAcceptance(acceptance))
        setTerms({ opened: next, version: acceptance.currentVersion });
      else setOpened(next);
    } catch (failure) {
      if (!(failure instanceof ApiRequestError)) console.error('[docket] Cloud password:', failure);
      await notify(
        'Cloud password',
        failure instanceof ApiRequestError ? failure.message : 'Something went wrong. Try again.',
      );
    } finally {
      setOpening(false);
    }
  };

  const onResult = async (result: PasswordModalResult) => {
    const current = opened;
    if (current === null) return;
    if (result.status === 'none') {
      setOpened(null);
      return;
    }
    setError(null);
    const mode = cloudPasswordMode(current.settings, current.keys);
    // Entered, not yet checked against the verifier: spec §4's have-password, while Argon2id runs.
    const checking = result.status === 'entered' && mode === 'enter';
    if (checking) sync.passwordHeld(result.password);
    try {
      const deps = {
        api,
        keys: cloudKeys,
        saveKeys: (keys: DeviceCloudKeys, keyEncryptionKeyBytes: Uint8Array) =>
          saveDeviceCloudKeys(current.userId, keys, keyEncryptionKeyBytes),
        onStep: (progress: CloudPasswordProgress) => {
          setWorking(workOf(progress));
        },
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
      setWorking(null);
      noticeAfterClose.current = said;
      setOpened(null);
      sync.passwordEntered(result.password, mode === 'change');
    } catch (failure) {
      setWorking(null);
      if (checking) sync.passwordRejected();
      if (!(failure instanceof CloudPasswordError || failure instanceof ApiRequestError)) {
        console.error('[docket] Cloud password:', failure);
      }
      setError(
        failure instanceof CloudPasswordError || failure instanceof ApiRequestError
          ? failure.message
          : 'Something went wrong. Try again.',
      );
    }
  };

  // The reset view was opened: count what a reset would take out of the account. Offline or
  // failed, the view says so; the reset goes ahead either way (it needs the server itself).
  const countForReset = () => {
    const current = opened;
    if (current === null) return;
    const run = ++countRun.current;
    if (!online) {
      setUnreceived({ kind: 'offline' });
      return;
    }
    setUnreceived({ kind: 'counting' });
    (async () => {
      const context = await billCommandContext();
      return countUnreceived(
        api,
        { store: context.store, userId: current.userId, deviceId: context.deviceId },
        current.settings,
      );
    })().then(
      (batches) => {
        if (run === countRun.current) setUnreceived({ kind: 'counted', batches });
      },
      (failure: unknown) => {
        if (!(failure instanceof ApiRequestError)) console.error('[docket] Counting:', failure);
        if (run !== countRun.current) return;
        const unreachable = failure instanceof ApiRequestError && failure.status === null;
        setUnreceived({ kind: unreachable ? 'offline' : 'failed' });
      },
    );
  };

  const mode = opened === null ? 'set' : cloudPasswordMode(opened.settings, opened.keys);
  const element = (
    <>
      <TermsPromptModal
        isOpen={terms !== null}
        {...(terms === null ? {} : { version: terms.version })}
        onAccepted={() => {
          const next = terms?.opened ?? null;
          setTerms(null);
          setOpened(next);
        }}
        onSetAside={() => {
          setTerms(null);
        }}
      />
      <CloudPasswordModal
        isOpen={opened !== null}
        title={titles[mode].title}
        subtitle={titles[mode].subtitle}
        passwordExists={mode !== 'set'}
        // A reset is for a device that does not know the password (PRODUCT.md): one that has
        // it changes it instead.
        allowReset={mode === 'enter'}
        newPassword={mode !== 'enter'}
        working={working}
        error={error}
        unreceived={unreceived}
        onResetView={countForReset}
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
          onResult(result).catch((failure: unknown) => {
            console.error('[docket] Cloud password:', failure);
          });
        }}
        onClosed={() => {
          countRun.current += 1;
          setUnreceived(null);
          const notice = noticeAfterClose.current;
          noticeAfterClose.current = null;
          // Focus was in the sheet, now gone: Ionic gives it back to what had it as the sheet
          // opened, which may be gone or disabled by now (or the terms prompt before it).
          const from = opener.current;
          opener.current = null;
          catchFallingFocus(() => returnTarget(from));
          if (notice !== null) toast.done(notice);
        }}
      />
    </>
  );
  return { open, opening, element };
}
