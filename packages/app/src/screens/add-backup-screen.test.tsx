import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { UseIonRouterResult } from '@ionic/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AddBackupScreen } from './add-backup-screen.tsx';

// "New backup" → Save says what it did as a polite status once the backup is stored: the form
// goes back to the list, which a screen reader does not read out by itself. The backup's
// encryption and upload, the keys and the router are the boundary replaced here; Ionic's toast
// controller stands in as a plain status element (the e2e tests show the real toast).

const made = vi.hoisted(() => ({
  createBackup: vi.fn(),
  push: vi.fn(),
}));

vi.mock('../backups/backup-actions.ts', () => ({
  createBackup: made.createBackup,
  renameBackup: vi.fn(),
}));
// The same objects on every render, as the app's hooks and context give them.
const stable = vi.hoisted(() => ({
  keys: { status: 'ready', userId: 'user-1', keys: {} },
  opened: { status: 'loading' },
  services: { api: {} },
  draft: { clear: () => undefined },
}));
vi.mock('../backups/backup-keys.ts', () => ({ useBackupKeys: () => stable.keys }));
vi.mock('../backups/use-opened-backup.ts', () => ({ useOpenedBackup: () => stable.opened }));
vi.mock('../services/app-services.ts', () => ({ useAppServices: () => stable.services }));
vi.mock('../drafts/use-form-draft.ts', () => ({ useFormDraft: () => stable.draft }));
vi.mock('../drafts/draft-offer.tsx', () => ({ DraftOffer: () => null }));
vi.mock('../ui/use-unsaved-changes-guard.ts', () => ({ useUnsavedChangesGuard: vi.fn() }));
vi.mock(import('@ionic/react'), async (original) => ({
  ...(await original()),
  // Only `push` is used: the form goes back to the list once saved.
  useIonRouter: () => ({ push: made.push }) as Partial<UseIonRouterResult> as UseIonRouterResult,
}));
// The header's sync and account parts need the app's services; only the page is tried here.
// Ionic's input as a plain labelled one: under jsdom its React wrapper hands on no events.
vi.mock('../ui/text-field.tsx', () => ({
  TextField: ({
    label,
    value,
    onChange,
  }: {
    label: string;
    value: string;
    onChange: (value: string) => void;
  }) => (
    <label>
      {label}
      <input
        value={value}
        onChange={(event) => {
          onChange(event.currentTarget.value);
        }}
      />
    </label>
  ),
}));
vi.mock('../layout/page-header.tsx', () => ({ PageHeader: () => null }));
vi.mock('../ui/ionic/overlay-controllers.ts', async () =>
  (await import('../toasts/fake-overlay-controllers.ts')).fakeOverlayControllers(),
);

afterEach(cleanup);

describe('AddBackupScreen', () => {
  it("keeps the backup's private words out of the browser's form restore", () => {
    render(
      <MemoryRouter initialEntries={['/add-backup']}>
        <AddBackupScreen />
      </MemoryRouter>,
    );
    expect(screen.getByLabelText('Description').getAttribute('autocomplete')).toBe('off');
  });

  it('says "Backup “Name” saved." as a status once the backup is saved', async () => {
    let stored: () => void = () => undefined;
    made.createBackup.mockReturnValue(
      new Promise<void>((resolve) => {
        stored = resolve;
      }),
    );
    render(
      <MemoryRouter initialEntries={['/add-backup']}>
        <AddBackupScreen />
      </MemoryRouter>,
    );
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  Before the hearing ' } });
    // Save is Ionic's submit button; jsdom does not run the element that submits its form.
    const save = screen.getByText('Save', { selector: 'ion-button[type="submit"]' });
    const form = save.closest('form');
    if (form === null) throw new Error('Save is not in the form');
    fireEvent.submit(form);
    // Under way: the form says so, and nothing is said to be saved yet.
    expect(await screen.findByText('Encrypting and uploading the backup…')).toBeDefined();
    expect(screen.queryByText(/saved\.$/)).toBeNull();
    await act(async () => {
      stored();
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    // Said in a polite status (the toast's), not only shown.
    const said = await screen.findByText('Backup “Before the hearing” saved.');
    expect(said.closest('[role="status"]')?.getAttribute('aria-live')).toBe('polite');
    expect(made.createBackup).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'Before the hearing' }),
    );
    expect(made.push).toHaveBeenCalledWith('/tabs/backups', 'back', 'pop');
  });
});
