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
  const controller = (dismissEvent: string) => ({
    create: () =>
      new Promise<HTMLElement>((resolve, reject) => {
        created.finish = (outcome) => {
          if (outcome === 'failed') {
            reject(new Error('could not load'));
            return;
          }
          const element = Object.assign(document.createElement('div'), {
            present: () => Promise.resolve(),
            dismiss: () => {
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
    alerts: () => controller('ionAlertDidDismiss'),
    toasts: () => controller('ionToastDidDismiss'),
  };
});

afterEach(cleanup);

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
