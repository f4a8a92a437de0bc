import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TermsOfServiceScreen } from './terms-of-service-screen.tsx';

// The terms screen's Accept says its outcome as a polite status once the server recorded it, as
// well as changing the line above it. The server's answers and the app's services are the
// boundary replaced here; Ionic's toast controller stands in as a plain status element.

const server = vi.hoisted(() => ({
  fetchTermsAcceptance: vi.fn(),
  acceptTerms: vi.fn(),
  termsAccepted: vi.fn(),
}));

vi.mock('../api/terms-api.ts', () => ({
  fetchTermsAcceptance: server.fetchTermsAcceptance,
  acceptTerms: server.acceptTerms,
}));
// One services object for every render, as the app's context gives: a new `api` on each render
// would start the screen's fetch again after Accept, and its answer ("not accepted") would
// undo what Accept showed (a race this test once lost under load).
const services = vi.hoisted(() => ({
  api: {},
  platform: { kind: 'web' },
  sync: { termsAccepted: (): undefined => undefined },
}));
vi.mock('../services/app-services.ts', () => ({
  useAppServices: () => services,
}));
// The header's sync and account parts need the app's services; only the page is tried here.
vi.mock('../layout/page-header.tsx', () => ({ PageHeader: () => null }));
vi.mock('../ui/ionic/overlay-controllers.ts', async () =>
  (await import('../toasts/fake-overlay-controllers.ts')).fakeOverlayControllers(),
);

afterEach(cleanup);

describe('TermsOfServiceScreen', () => {
  it('says "Terms accepted." as a status once the acceptance is recorded', async () => {
    server.fetchTermsAcceptance.mockResolvedValue({ currentVersion: 'v2', accepted: null });
    let recorded: () => void = () => undefined;
    server.acceptTerms.mockReturnValue(
      new Promise((resolve) => {
        recorded = () => {
          resolve({
            currentVersion: 'v2',
            accepted: { version: 'v2', acceptedAt: '2026-11-30T10:00:00.000Z' },
          });
        };
      }),
    );
    services.sync.termsAccepted = server.termsAccepted;
    render(<TermsOfServiceScreen />);
    expect(await screen.findByText('You have not accepted these terms yet.')).toBeDefined();
    fireEvent.click(screen.getByText('Accept', { selector: 'ion-button' }));
    // Not said before the server answered.
    expect(screen.queryByText('Terms accepted.')).toBeNull();
    recorded();
    const said = await screen.findByText('Terms accepted.');
    expect(said.closest('[role="status"]')?.getAttribute('aria-live')).toBe('polite');
    expect(await screen.findByText(/^You accepted version v2 on /)).toBeDefined();
    expect(server.termsAccepted).toHaveBeenCalledOnce();
    // The screen asked the server once, not again on each render.
    expect(server.fetchTermsAcceptance).toHaveBeenCalledOnce();
  });
});
