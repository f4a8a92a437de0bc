import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alertOpenOrOpening, useAlert, useToast } from './lazy-overlays.ts';

// Whether an alert is on screen or on its way there, counted from the call to present: Ionic's
// controllers stand in here for a test of the count only (the e2e tests show the real alerts).
// The alert's element exists only once its code has loaded and `create` has answered; a notice
// that looked only at the page could slip in before then and cover it (SyncNotice).

const created = vi.hoisted(() => ({
  /** Resolves the pending `create`, or makes it fail. */
  finish: null as null | ((outcome: 'made' | 'failed') => void),
  elements: [] as HTMLElement[],
}));

vi.mock('./ionic/overlay-controllers.ts', () => {
  const controller = (closeEvent: string, dismissEvent: string) => ({
    create: () =>
      new Promise<HTMLElement>((resolve, reject) => {
        created.finish = (outcome) => {
          if (outcome === 'failed') {
            reject(new Error('could not load'));
            return;
          }
          const element = Object.assign(document.createElement('div'), {
            present: () => Promise.resolve(),
            /** Ionic's leave animation: closing, not yet closed. */
            startClosing: () => {
              element.dispatchEvent(new CustomEvent(closeEvent, { detail: {} }));
            },
            dismiss: () => {
              element.dispatchEvent(new CustomEvent(closeEvent, { detail: {} }));
              element.dispatchEvent(new CustomEvent(dismissEvent, { detail: {} }));
              return Promise.resolve(true);
            },
          });
          created.elements.push(element);
          resolve(element);
        };
      }),
  });
  return {
    alerts: () => controller('ionAlertWillDismiss', 'ionAlertDidDismiss'),
    toasts: () => controller('ionToastWillDismiss', 'ionToastDidDismiss'),
  };
});

afterEach(cleanup);

/** The `create` under way, read through a call (the compiler would keep a null it saw set). */
const pendingCreate = () => created.finish;

/** Lets the lazy load's promises run. */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

describe('alerts on their way to the screen', () => {
  it('count from the call to present until they close', async () => {
    const { result } = renderHook(() => useAlert());
    const [present, dismiss] = result.current;
    let presented: Promise<void> = Promise.resolve();
    act(() => {
      presented = present({ header: 'Cloud password', message: 'Done.', buttons: ['OK'] });
    });
    // Not yet in the page, already counted.
    expect(alertOpenOrOpening()).toBe(true);
    await settle();
    created.finish?.('made');
    await act(() => presented);
    expect(alertOpenOrOpening()).toBe(true);
    await act(() => dismiss());
    expect(alertOpenOrOpening()).toBe(false);
  });

  it('stop counting one that fails to load or is dismissed while being made', async () => {
    const { result } = renderHook(() => useAlert());
    let presented: Promise<void> = Promise.resolve();
    act(() => {
      presented = result.current[0]({ header: 'Sync', message: 'Saved.' });
    });
    expect(alertOpenOrOpening()).toBe(true);
    await settle();
    created.finish?.('failed');
    await expect(act(() => presented)).rejects.toThrow('could not load');
    expect(alertOpenOrOpening()).toBe(false);

    act(() => {
      presented = result.current[0]({ header: 'Sync', message: 'Saved.' });
    });
    await act(() => result.current[1]());
    await settle();
    created.finish?.('made');
    await act(() => presented);
    expect(alertOpenOrOpening()).toBe(false);
  });

  it('a press while the last one is still closing shows the next one', async () => {
    const { result } = renderHook(() => useAlert());
    let presented: Promise<void> = Promise.resolve();
    act(() => {
      presented = result.current[0]({ header: 'Clear this device?' });
    });
    await settle();
    created.finish?.('made');
    await act(() => presented);
    const first = created.elements.at(-1) as HTMLElement & { startClosing: () => void };
    // Cancel pressed: the alert plays its leave animation; the person presses again at once.
    act(() => {
      first.startClosing();
    });
    const before = created.elements.length;
    created.finish = null;
    act(() => {
      presented = result.current[0]({ header: 'Clear this device?' });
    });
    await settle();
    // A new alert is on its way (create was called again).
    expect(pendingCreate()).not.toBeNull();
    pendingCreate()?.('made');
    await act(() => presented);
    expect(created.elements.length).toBe(before + 1);
    // A press while one is open (not closing) still shows nothing more.
    created.finish = null;
    act(() => {
      void result.current[0]({ header: 'Clear this device?' });
    });
    await settle();
    expect(pendingCreate()).toBeNull();
    expect(created.elements.length).toBe(before + 1);
    // Both close: the first ends its animation, the second is dismissed; none counts any more.
    act(() => {
      first.dispatchEvent(new CustomEvent('ionAlertDidDismiss', { detail: {} }));
    });
    await act(() => result.current[1]());
    expect(alertOpenOrOpening()).toBe(false);
  });

  it('are not toasts', async () => {
    const { result } = renderHook(() => useToast());
    act(() => {
      void result.current[0]({ message: 'Saved.' });
    });
    expect(alertOpenOrOpening()).toBe(false);
    await settle();
    created.finish?.('made');
    await settle();
  });
});
