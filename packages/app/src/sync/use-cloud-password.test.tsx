import { createMemoryLocalStore } from '@docket/core/store';
import type { SyncSettings } from '@docket/protocol/sync-settings';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CloudKeyApi } from '../cloud-key-worker/cloud-key-worker.ts';
import type { DeviceCloudKeys } from './cloud-keys-store.ts';
import { materialFromSettings } from './cloud-password-flow.ts';
import { noPassword, withPassword } from './sync-runner-harness.ts';
import { useCloudPassword } from './use-cloud-password.tsx';

// What the cloud password says once its work is done (issue 40): the sentence as a polite status
// toast once the sheet has closed, no alert to dismiss with OK, and focus back on the control
// that opened the sheet (or, when that went away or was disabled, the next one beside it). The
// server, the key worker, the device's key store and Ionic's modal are the boundary replaced
// here; Ionic's toast controller stands in as a plain status element, its alert controller as a
// plain alertdialog with its buttons.

const made = vi.hoisted(() => ({
  settings: null as SyncSettings | null,
  deviceKeys: null as DeviceCloudKeys | null,
  entered: (): void => undefined,
}));

/** The server: the settings, what a reset would take (nothing), and a write that wins. */
const api = vi.hoisted(
  () =>
    (request: { method: string; path: string; body?: unknown }): Promise<unknown> => {
      const settings = made.settings;
      if (settings === null) return Promise.reject(new Error('no settings'));
      if (request.method === 'PUT') {
        const { settings: written } = request.body as { settings: Partial<SyncSettings> };
        return Promise.resolve({ ...settings, ...written, version: settings.version + 1 });
      }
      if (request.path.startsWith('/api/sync/unreceived')) return Promise.resolve({ envelopes: 0 });
      return Promise.resolve(settings);
    },
);

// The same objects on every render, as the app's context gives them.
const stable = vi.hoisted(() => ({
  services: {
    api,
    sync: {
      passwordHeld: () => undefined,
      passwordRejected: () => undefined,
      passwordEntered: () => {
        made.entered();
      },
    },
  },
  state: { user: { id: 'user-1' }, online: true },
}));

vi.mock('../services/app-services.ts', () => ({ useAppServices: () => stable.services }));
vi.mock('../state/use-app-state.ts', () => ({
  useAppState: <T,>(select: (state: typeof stable.state) => T) => select(stable.state),
}));
vi.mock('../api/terms-api.ts', () => ({
  fetchTermsAcceptance: () =>
    Promise.resolve({ currentVersion: 'v1', accepted: { version: 'v1', acceptedAt: '' } }),
}));
vi.mock('../terms/terms-prompt-modal.tsx', () => ({ TermsPromptModal: () => null }));
vi.mock('./cloud-keys-store.ts', () => ({
  loadDeviceCloudKeys: () => Promise.resolve(made.deviceKeys),
  saveDeviceCloudKeys: () => Promise.resolve(),
}));

/** The key worker's answers, made at once: the material is withPassword's, at the given epoch. */
vi.mock('../cloud-key-worker/cloud-key-client.ts', () => {
  const unlocked = () => ({
    dataKey: {},
    keyEncryptionKey: {},
    keyEncryptionKeyBytes: new Uint8Array(32),
  });
  const material = (keyEpoch: number) => ({
    kdf: { algorithm: 'argon2id', memoryKiB: 8, iterations: 1, parallelism: 1 },
    kekSalt: 'c2FsdHNhbHRzYWx0c2FsdA==',
    passwordHash: '$argon2id$v=19$m=8,t=1,p=1$bmV3c2FsdA$bmV3',
    wrappedDataKey: 'bmV3IHdyYXBwZWQ=',
    keyEpoch,
  });
  const cloudKeys = {
    create: (_password: string, keyEpoch: number) =>
      Promise.resolve({ material: material(keyEpoch), keys: unlocked() }),
    unlock: () => Promise.resolve(unlocked()),
    change: (current: { material: { keyEpoch: number } }) =>
      Promise.resolve({ material: material(current.material.keyEpoch), keys: unlocked() }),
  } as unknown as CloudKeyApi;
  return { cloudKeys };
});
vi.mock('../bills/bill-command-services.ts', () => ({
  billCommandContext: () => Promise.resolve({ store: createMemoryLocalStore(), deviceId: 'dev-1' }),
}));
vi.mock(import('@docket/core/sync'), async (original) => ({
  ...(await original()),
  prepareResetUpload: () => Promise.resolve({ rows: 0 }),
}));

// Ionic's modal as a plain dialog that says it has closed once `isOpen` turns false.
vi.mock('../ui/ionic/ion-modal.ts', () => ({
  IonModal: ({
    isOpen,
    children,
    'aria-label': label,
    onDidDismiss,
  }: {
    isOpen: boolean;
    children: ReactNode;
    'aria-label': string;
    onDidDismiss?: () => void;
  }) => {
    const wasOpen = useRef(false);
    useEffect(() => {
      if (isOpen) wasOpen.current = true;
      else if (wasOpen.current) {
        wasOpen.current = false;
        onDidDismiss?.();
      }
    }, [isOpen, onDidDismiss]);
    return isOpen ? (
      <div role="dialog" aria-label={label}>
        {children}
      </div>
    ) : null;
  },
}));
// Ionic's input as a plain labelled one: under jsdom its React wrapper hands on no events.
vi.mock('../ui/ionic/ion-input.ts', () => ({
  IonInput: ({
    label,
    value,
    onIonInput,
  }: {
    label: string;
    value?: string;
    onIonInput?: (event: { detail: { value: string } }) => void;
  }) => (
    <label>
      {label}
      <input
        value={value ?? ''}
        onChange={(event) => {
          onIonInput?.({ detail: { value: event.currentTarget.value } });
        }}
      />
    </label>
  ),
}));
vi.mock('../ui/ionic/ion-input-password-toggle.ts', () => ({ IonInputPasswordToggle: () => null }));

interface FakeAlertButton {
  readonly text: string;
  readonly handler?: () => void;
}

vi.mock('../ui/ionic/overlay-controllers.ts', async () => {
  const { fakeOverlayControllers } = await import('../toasts/fake-overlay-controllers.ts');
  const alertController = {
    create: (options: {
      header?: string;
      message?: string;
      buttons?: (string | FakeAlertButton)[];
    }) => {
      const alert = document.createElement('div');
      alert.setAttribute('role', 'alertdialog');
      alert.setAttribute('aria-label', options.header ?? '');
      alert.append(Object.assign(document.createElement('p'), { textContent: options.message }));
      const dismiss = () => {
        alert.dispatchEvent(new CustomEvent('ionAlertWillDismiss', { detail: {} }));
        alert.remove();
        alert.dispatchEvent(new CustomEvent('ionAlertDidDismiss', { detail: {} }));
        return Promise.resolve(true);
      };
      for (const given of options.buttons ?? []) {
        const button = typeof given === 'string' ? { text: given } : given;
        const element = Object.assign(document.createElement('button'), {
          textContent: button.text,
        });
        element.addEventListener('click', () => {
          button.handler?.();
          void dismiss();
        });
        alert.append(element);
      }
      return Promise.resolve(
        Object.assign(alert, {
          present: () => {
            document.body.append(alert);
            return Promise.resolve();
          },
          dismiss,
        }),
      );
    },
  };
  return { toasts: fakeOverlayControllers().toasts, alerts: () => alertController };
});

/**
 * More's sync buttons, as far as the sheet is concerned: "Set up sync" goes away and "Sync now"
 * is disabled once a password is entered (the sync it starts runs).
 */
function SyncButtons({ setUp }: { setUp: boolean }) {
  const cloudPassword = useCloudPassword();
  const [entered, setEntered] = useState(false);
  useEffect(() => {
    made.entered = () => {
      setEntered(true);
    };
  }, []);
  const open = () => {
    // Its own failures are said in an alert (none here).
    void cloudPassword.open();
  };
  return (
    <main>
      <h1>More</h1>
      <div>
        {setUp && !entered && <button onClick={open}>Set up sync</button>}
        <button disabled={entered}>Sync now</button>
        <button onClick={open}>Cloud password</button>
      </div>
      {cloudPassword.element}
    </main>
  );
}

/** Focuses `name`'s button and presses it, as a keyboard or a click in Chromium does. */
async function press(name: string, inside: HTMLElement = document.body): Promise<void> {
  const button = (await screen.findAllByText(name, { selector: 'button, ion-button' })).find(
    (found) => inside.contains(found),
  );
  if (button === undefined) throw new Error(`No button ${name}`);
  button.focus();
  fireEvent.click(button);
}

/** Types into the sheet's fields (twice where it asks for a new password), focus in the sheet. */
function type(sheet: HTMLElement, password: string): void {
  for (const label of ['Cloud password', 'Repeat cloud password']) {
    const field = within(sheet).queryByLabelText(label);
    if (field === null) continue;
    field.focus();
    fireEvent.change(field, { target: { value: password } });
  }
}

async function sheetNamed(name: string): Promise<HTMLElement> {
  return screen.findByRole('dialog', { name });
}

/** The sheet has closed: its sentence is a polite status, and no alert asks for an OK. */
async function expectToldByToast(sentence: string): Promise<void> {
  await waitFor(() => {
    expect(screen.queryByRole('dialog')).toBeNull();
  });
  const said = await screen.findByText(sentence, {}, { timeout: 3_000 });
  expect(said.closest('[role="status"]')?.getAttribute('aria-live')).toBe('polite');
  expect(screen.queryByRole('alertdialog')).toBeNull();
  expect(screen.queryByText('OK')).toBeNull();
}

async function expectFocusOn(name: string): Promise<void> {
  await waitFor(() => {
    expect(document.activeElement?.textContent).toBe(name);
  });
}

beforeEach(() => {
  made.settings = null;
  made.deviceKeys = null;
});
afterEach(() => {
  cleanup();
  // The fake toasts stay in the body, as a real one would for its 4 s.
  document.body.replaceChildren();
});

const PASSWORD = 'tulip lantern 42 river';

/** Keys this device keeps that match `settings`: it offers a change. */
function deviceKeysFor(settings: SyncSettings): DeviceCloudKeys {
  const material = materialFromSettings(settings);
  if (material === null) throw new Error('these settings have no password');
  return {
    keyEpoch: material.keyEpoch,
    dataKey: {},
    keyEncryptionKey: {},
    material,
  } as unknown as DeviceCloudKeys;
}

describe('the cloud password, once its work is done', () => {
  it('says a first password is set in a toast, focus on the next button where Set up sync was', async () => {
    made.settings = noPassword;
    render(<SyncButtons setUp />);
    await press('Set up sync');
    const sheet = await sheetNamed('Set a cloud password');
    type(sheet, PASSWORD);
    await press('Go', sheet);
    await expectToldByToast(
      'The cloud password is set. Other devices ask for it when they first sync.',
    );
    // "Set up sync" went away and "Sync now" is disabled: the next usable control beside them.
    await expectFocusOn('Cloud password');
  });

  it('says this device has the password in a toast, focus back on Cloud password', async () => {
    made.settings = withPassword;
    render(<SyncButtons setUp={false} />);
    await press('Cloud password');
    const sheet = await sheetNamed('Enter your cloud password');
    type(sheet, PASSWORD);
    await press('Go', sheet);
    await expectToldByToast('This device now has the cloud password.');
    await expectFocusOn('Cloud password');
  });

  it('says a changed password in a toast', async () => {
    made.settings = withPassword;
    made.deviceKeys = deviceKeysFor(withPassword);
    render(<SyncButtons setUp={false} />);
    await press('Cloud password');
    const sheet = await sheetNamed('Change cloud password');
    type(sheet, 'a brand new one');
    await press('Go', sheet);
    await expectToldByToast(
      'The cloud password is changed. Your other devices ask for the new one when they next sync.',
    );
    await expectFocusOn('Cloud password');
  });

  it('says a reset in a toast, once the reset was confirmed', async () => {
    made.settings = withPassword;
    render(<SyncButtons setUp={false} />);
    await press('Cloud password');
    const sheet = await sheetNamed('Enter your cloud password');
    await press('Reset', sheet);
    const reset = await sheetNamed('Reset cloud password');
    type(reset, 'a fresh start here');
    await press('Reset password', reset);
    // The consequence is asked about before anything happens: that stays a dialog.
    const confirm = await screen.findByRole('alertdialog', { name: 'Reset cloud password?' });
    await act(async () => {
      await press('Confirm', confirm);
    });
    await expectToldByToast(
      "The cloud password is reset. Your other devices ask for the new one, save a full backup of their own data, then take this device's data.",
    );
    await expectFocusOn('Cloud password');
  });

  it('closed with Close, gives focus back to the button that opened it', async () => {
    made.settings = withPassword;
    made.deviceKeys = deviceKeysFor(withPassword);
    render(<SyncButtons setUp={false} />);
    await press('Cloud password');
    const sheet = await sheetNamed('Change cloud password');
    within(sheet).getByLabelText('Cloud password').focus();
    await press('Close', sheet);
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    await expectFocusOn('Cloud password');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
