// For render tests (jsdom): Ionic's overlay controllers as plain elements, so a test finds what a
// screen said through useStatusToast by its text and its polite status role, as a screen reader
// meets it (Ionic's toast content is role="status", aria-live="polite"). The e2e tests show the
// real toast. Use: vi.mock('../ui/ionic/overlay-controllers.ts', fakeOverlayControllers).

interface FakeOverlayOptions {
  readonly message?: string;
}

/** What `overlay-controllers.ts` offers, each overlay a status element put in the body as it shows. */
export function fakeOverlayControllers() {
  const controller = {
    create: (options: FakeOverlayOptions) =>
      Promise.resolve(
        Object.assign(document.createElement('div'), {
          present(this: HTMLElement) {
            this.setAttribute('role', 'status');
            this.setAttribute('aria-live', 'polite');
            this.textContent = options.message ?? '';
            document.body.append(this);
            return Promise.resolve();
          },
          dismiss(this: HTMLElement) {
            this.remove();
            return Promise.resolve(true);
          },
        }),
      ),
  };
  return { toasts: () => controller, alerts: () => controller };
}
