import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TermsPromptModal } from './terms-prompt-modal.tsx';

// The prompt before the first sync: its Accept says "Terms accepted." as a polite status once the
// server recorded it (the prompt closes, which a screen reader does not read out). The server,
// the app's services and Ionic's modal are the boundary replaced here; Ionic's toast
// controller stands in as a plain status element.

const server = vi.hoisted(() => ({ acceptTerms: vi.fn(), termsAccepted: vi.fn() }));

vi.mock('../api/terms-api.ts', () => ({ acceptTerms: server.acceptTerms }));
// One services object for every render, as the app's context gives.
const services = vi.hoisted(() => ({ api: {}, platform: { kind: 'web' } }));
vi.mock('../services/app-services.ts', () => ({
  useAppServices: () => ({ ...services, sync: { termsAccepted: server.termsAccepted } }),
}));
// Ionic's modal as a plain dialog: under jsdom it shows nothing of its own.
vi.mock('../ui/ionic/ion-modal.ts', () => ({
  IonModal: ({
    isOpen,
    children,
    'aria-label': label,
  }: {
    isOpen: boolean;
    children: ReactNode;
    'aria-label': string;
  }) =>
    isOpen ? (
      <div role="dialog" aria-label={label}>
        {children}
      </div>
    ) : null,
}));
vi.mock('../ui/ionic/overlay-controllers.ts', async () =>
  (await import('../toasts/fake-overlay-controllers.ts')).fakeOverlayControllers(),
);

afterEach(cleanup);

describe('TermsPromptModal', () => {
  it('says "Terms accepted." as a status once the acceptance is recorded', async () => {
    let recorded: () => void = () => undefined;
    server.acceptTerms.mockReturnValue(
      new Promise<void>((resolve) => {
        recorded = resolve;
      }),
    );
    const onAccepted = vi.fn();
    render(<TermsPromptModal isOpen version="v2" onAccepted={onAccepted} onSetAside={vi.fn()} />);
    const prompt = screen.getByRole('dialog', { name: 'Accept the terms to sync' });
    fireEvent.click(within(prompt).getByText('Accept', { selector: 'ion-button' }));
    expect(screen.queryByText('Terms accepted.')).toBeNull();
    recorded();
    const said = await screen.findByText('Terms accepted.');
    expect(said.closest('[role="status"]')?.getAttribute('aria-live')).toBe('polite');
    expect(server.acceptTerms).toHaveBeenCalledWith({}, 'v2');
    expect(onAccepted).toHaveBeenCalledOnce();
  });
});
