import type { Page } from '@playwright/test';

// The access guard's "Authenticating" status as the page itself saw it: when it came, when it
// left, and whether the sign-in form was there with it, by the page's own clock. On a busy
// machine the first paint can come seconds after the guard started, so what is painted when
// says little about what the page did.

export interface AuthenticatingTimes {
  shown: number;
  gone: number;
  /** Whether the sign-in form was in the page when the status came. */
  withForm: boolean;
}

/**
 * Records, by the page's own clock, when an "Authenticating" status came into the page and when
 * it left, and whether the form was there with it: on a busy machine the first paint can come
 * seconds after the guard started, so what is painted when says little.
 */
export async function recordAuthenticating(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const times: Partial<AuthenticatingTimes> = {};
    (window as unknown as { authenticatingTimes: typeof times }).authenticatingTimes = times;
    const present = () =>
      Array.from(document.querySelectorAll('[role="status"]')).some((element) =>
        element.textContent.includes('Authenticating'),
      );
    const form = () =>
      Array.from(document.querySelectorAll('ion-button, button')).some(
        (element) => element.textContent.trim() === 'Sign in',
      );
    new MutationObserver(() => {
      if (times.shown === undefined && present()) {
        times.shown = performance.now();
        times.withForm = form();
      }
      if (times.shown !== undefined && !times.withForm && form()) times.withForm = present();
      if (times.shown !== undefined && times.gone === undefined && !present()) {
        times.gone = performance.now();
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/**
 * The recorded times, once the status has come and gone (waiting up to `timeout` for both: a
 * status not yet painted when the test looks is not one that has gone).
 */
export async function authenticatingTimes(
  page: Page,
  timeout = 15_000,
): Promise<AuthenticatingTimes> {
  const cameAndWent = () => {
    const times = (window as unknown as { authenticatingTimes: Partial<AuthenticatingTimes> })
      .authenticatingTimes;
    return times.shown !== undefined && times.gone !== undefined;
  };
  await page.waitForFunction(cameAndWent, undefined, { timeout }).catch(() => undefined);
  const times = await page.evaluate(
    () =>
      (window as unknown as { authenticatingTimes: Partial<AuthenticatingTimes> })
        .authenticatingTimes,
  );
  if (times.shown === undefined || times.gone === undefined) {
    throw new Error(`"Authenticating" was not seen to come and go: ${JSON.stringify(times)}`);
  }
  return { shown: times.shown, gone: times.gone, withForm: times.withForm ?? false };
}
