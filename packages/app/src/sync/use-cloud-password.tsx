import { prepareResetUpload } from '@docket/core/sync';
import type { SyncSettings } from '@docket/protocol/sync-settings';
import { useRef, useState, type ReactNode } from 'react';
import { ApiRequestError, type ApiClient } from '../api/api-client.ts';
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
import {
  CloudPasswordModal,
  type CloudPasswordModalProps,
  type CloudPasswordWork,
} from './cloud-password-modal.tsx';
import type { PasswordModalResult, UnreceivedCount } from './cloud-password-words.ts';
import { useAlert } from '../ui/lazy-overlays.ts';
import type { SyncRunnerApi } from './lazy-sync-runner.ts';
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

/** The terms asked for before the sheet opens, and what the sheet opens with once accepted. */
interface PendingTerms {
  readonly opened: Opened;
  readonly version: string;
}

/** Ionic's alert, as `useAlert` gives it. */
type PresentAlert = ReturnType<typeof useAlert>[0];

/**
 * What the hook's use cases act on: the services, and the setters and refs of the hook's state
 * (the state itself is read where it is rendered).
 */
interface CloudPasswordSheet {
  readonly api: ApiClient;
  readonly sync: SyncRunnerApi;
  readonly notify: (header: string, message: string) => Promise<void>;
  readonly setOpening: (opening: boolean) => void;
  readonly setOpened: (opened: Opened | null) => void;
  readonly setTerms: (terms: PendingTerms | null) => void;
  readonly setWorking: (working: CloudPasswordWork | null) => void;
  readonly setError: (error: string | null) => void;
  /** What the work after Go did, said once the sheet has finished closing. */
  readonly noticeAfterClose: { current: string | null };
  /** The control that asked for the sheet, given focus back once it has closed. */
  readonly opener: { current: Opener | null };
  /** Says what was done, as a status toast. */
  readonly sayDone: (notice: string) => void;
  /** Drops the count of what a reset would take (`useUnreceivedCount`). */
  readonly forgetCount: () => void;
}

/** The control that has focus as a button asks for the sheet, and the group it sits in. */
function focusedOpener(): Opener | null {
  const active = document.activeElement;
  return active instanceof HTMLElement && active !== document.body
    ? { control: active, group: active.parentElement }
    : null;
}

/** What the sheet opens with, and the terms' version when they must be accepted first. */
async function fetchOpening(
  api: ApiClient,
  userId: string,
): Promise<{ readonly opened: Opened; readonly termsVersion: string | null }> {
  const [settings, keys, acceptance] = await Promise.all([
    fetchSyncSettings(api),
    loadDeviceCloudKeys(userId),
    fetchTermsAcceptance(api),
  ]);
  return {
    opened: { settings, keys, userId },
    termsVersion: needsAcceptance(acceptance) ? acceptance.currentVersion : null,
  };
}

/**
 * A button asks for the sheet: signed in, the settings, this device's keys and the terms'
 * acceptance are fetched, and the terms' prompt or the sheet opens; a failure is said in an alert.
 */
async function openSheet(sheet: CloudPasswordSheet, userId: string | null): Promise<void> {
  if (userId === null) {
    await sheet.notify(
      'Cloud password',
      'The cloud password needs a connection to the Docket server. Connect and try again.',
    );
    return;
  }
  sheet.opener.current = focusedOpener();
  sheet.setOpening(true);
  try {
    const { opened: next, termsVersion } = await fetchOpening(sheet.api, userId);
    sheet.setError(null);
    if (termsVersion !== null) sheet.setTerms({ opened: next, version: termsVersion });
    else sheet.setOpened(next);
  } catch (failure) {
    if (!(failure instanceof ApiRequestError)) console.error('[docket] Cloud password:', failure);
    await sheet.notify(
      'Cloud password',
      failure instanceof ApiRequestError ? failure.message : 'Something went wrong. Try again.',
    );
  } finally {
    sheet.setOpening(false);
  }
}

/**
 * The work after Go or Reset password: a reset makes the account's new truth from this device's
 * data; Go sets, joins or changes the password. Resolves to what was done, in a sentence.
 */
function runPasswordWork(
  api: ApiClient,
  current: Opened,
  result: Exclude<PasswordModalResult, { readonly status: 'none' }>,
  onStep: (progress: CloudPasswordProgress) => void,
): Promise<string> {
  const deps = {
    api,
    keys: cloudKeys,
    saveKeys: (keys: DeviceCloudKeys, keyEncryptionKeyBytes: Uint8Array) =>
      saveDeviceCloudKeys(current.userId, keys, keyEncryptionKeyBytes),
    onStep,
  };
  if (result.status !== 'reset') {
    return applyEnteredPassword(deps, current.settings, current.keys, result.password);
  }
  const makeTruth = async (written: SyncSettings) => {
    const context = await billCommandContext();
    await prepareResetUpload(context.store, {
      userId: current.userId,
      deviceId: context.deviceId,
      epoch: written.keyEpoch,
      epochStartSeqno: written.epochStartSeqno,
      nowMs: Date.now(),
    });
  };
  return resetCloudPassword({ ...deps, makeTruth }, current.settings, result.password);
}

/**
 * The sheet's answer: none closes it; a password is carried out with each step said, then the
 * sheet closes and sync is told; a refusal or failure stays in the sheet, under the field.
 */
async function carryOutResult(
  sheet: CloudPasswordSheet,
  current: Opened | null,
  result: PasswordModalResult,
): Promise<void> {
  if (current === null) return;
  if (result.status === 'none') {
    sheet.setOpened(null);
    return;
  }
  sheet.setError(null);
  const mode = cloudPasswordMode(current.settings, current.keys);
  // Entered, not yet checked against the verifier: spec §4's have-password, while Argon2id runs.
  const checking = result.status === 'entered' && mode === 'enter';
  if (checking) sheet.sync.passwordHeld(result.password);
  try {
    const said = await runPasswordWork(sheet.api, current, result, (progress) => {
      sheet.setWorking(workOf(progress));
    });
    sheet.setWorking(null);
    sheet.noticeAfterClose.current = said;
    sheet.setOpened(null);
    sheet.sync.passwordEntered(result.password, mode === 'change');
  } catch (failure) {
    sheet.setWorking(null);
    if (checking) sheet.sync.passwordRejected();
    if (!(failure instanceof CloudPasswordError || failure instanceof ApiRequestError)) {
      console.error('[docket] Cloud password:', failure);
    }
    sheet.setError(
      failure instanceof CloudPasswordError || failure instanceof ApiRequestError
        ? failure.message
        : 'Something went wrong. Try again.',
    );
  }
}

/**
 * The sheet has finished closing: the count is dropped, focus goes back to the control that asked
 * for the sheet (or the next usable one), and what the work after Go did is said.
 */
function sheetClosed(sheet: CloudPasswordSheet): void {
  sheet.forgetCount();
  const notice = sheet.noticeAfterClose.current;
  sheet.noticeAfterClose.current = null;
  // Focus was in the sheet, now gone: Ionic gives it back to what had it as the sheet
  // opened, which may be gone or disabled by now (or the terms prompt before it).
  const from = sheet.opener.current;
  sheet.opener.current = null;
  catchFallingFocus(() => returnTarget(from));
  if (notice !== null) sheet.sayDone(notice);
}

/** "Reset cloud password?", asked before a reset goes ahead: true on Confirm. */
function confirmResetWith(presentAlert: PresentAlert): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
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
  });
}

/**
 * What a reset would take out of the account, counted each time the reset view opens. Offline
 * or failed, the view says so; the reset goes ahead either way (it needs the server itself).
 */
function useUnreceivedCount(api: ApiClient, online: boolean) {
  const [unreceived, setUnreceived] = useState<UnreceivedCount | null>(null);
  // Which count is the latest: an answer to an earlier opening of the reset view is dropped.
  const countRun = useRef(0);

  const countFor = (current: Opened | null) => {
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
  /** The sheet closed: a count still running is dropped, and the next view starts blank. */
  const forget = () => {
    countRun.current += 1;
    setUnreceived(null);
  };
  return { unreceived, countFor, forget };
}

/** The sheet's props other than those its mode sets. */
type SheetModalProps = Omit<
  CloudPasswordModalProps,
  'isOpen' | 'title' | 'subtitle' | 'passwordExists' | 'allowReset' | 'newPassword'
>;

/**
 * Spec §2's modal in the mode the account's settings and this device's keys call for (set, enter
 * or change), open while the sheet has something to open with.
 */
function ModeCloudPasswordModal(props: SheetModalProps & { readonly opened: Opened | null }) {
  const { opened, ...rest } = props;
  const mode = opened === null ? 'set' : cloudPasswordMode(opened.settings, opened.keys);
  return (
    <CloudPasswordModal
      {...rest}
      isOpen={opened !== null}
      title={titles[mode].title}
      subtitle={titles[mode].subtitle}
      passwordExists={mode !== 'set'}
      // A reset is for a device that does not know the password (PRODUCT.md): one that has
      // it changes it instead.
      allowReset={mode === 'enter'}
      newPassword={mode !== 'enter'}
    />
  );
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
  const [terms, setTerms] = useState<PendingTerms | null>(null);
  const [working, setWorking] = useState<CloudPasswordWork | null>(null);
  const [error, setError] = useState<string | null>(null);
  const counting = useUnreceivedCount(api, online);
  // What the work after Go did, said as a status toast once the sheet has finished closing
  // (issue 40: no dialog to dismiss with OK): shown earlier, it would sit over the leaving
  // sheet's footer for part of its few seconds. Each sentence repeats what the sheet said before
  // Go (the subtitle, the reset view and its Confirm): nothing in it asks for an answer.
  const noticeAfterClose = useRef<string | null>(null);
  // Taken as a button asks for the sheet, to give focus back once it has closed.
  const opener = useRef<Opener | null>(null);

  const sheet: CloudPasswordSheet = {
    api,
    sync,
    notify: (header, message) => presentAlert({ header, message, buttons: ['OK'] }),
    setOpening,
    setOpened,
    setTerms,
    setWorking,
    setError,
    noticeAfterClose,
    opener,
    sayDone: (notice) => {
      toast.done(notice);
    },
    forgetCount: counting.forget,
  };

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
      <ModeCloudPasswordModal
        opened={opened}
        working={working}
        error={error}
        unreceived={counting.unreceived}
        onResetView={() => {
          counting.countFor(opened);
        }}
        confirmReset={() => confirmResetWith(presentAlert)}
        onResult={(result) => {
          carryOutResult(sheet, opened, result).catch((failure: unknown) => {
            console.error('[docket] Cloud password:', failure);
          });
        }}
        onClosed={() => {
          sheetClosed(sheet);
        }}
      />
    </>
  );
  return { open: () => openSheet(sheet, userId), opening, element };
}
