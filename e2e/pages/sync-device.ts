import { expect, type Browser, type Page } from '@playwright/test';
import { goodPassword, LoginPage, uniqueEmail } from './login-page.ts';
import { expectPainted } from './painted.ts';

// One device of a user for the sync tests: a browser context of its own (its own IndexedDB),
// signed in, with the More tab's cloud password button and the modal of spec §2. Before the
// first sync Docket asks the user to accept its terms of service: the helpers accept them.

export async function signedInDevice(
  browser: Browser,
  email: string,
  create: boolean,
  /** Another server than the configured one (several server processes on one database). */
  baseURL?: string,
): Promise<Page> {
  const context = await browser.newContext(baseURL === undefined ? {} : { baseURL });
  const page = await context.newPage();
  const login = new LoginPage(page);
  await login.open('/tabs/more');
  if (create) await login.createAccount(email, goodPassword);
  else await login.signIn(email, goodPassword);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible({ timeout: 15_000 });
  return page;
}

export const TERMS_PROMPT_TITLE = 'Accept the terms to sync';

export function cloudPasswordModal(page: Page) {
  return page
    .locator('ion-modal')
    .filter({ has: page.getByLabel('Cloud password', { exact: true }) });
}

/**
 * The modal whose dialog is named `name`. Ionic puts the dialog role on a wrapper in the modal's
 * shadow root, so the modal's content is found from the modal element, not from the dialog.
 */
export function modalNamed(page: Page, name: string) {
  return page.locator('ion-modal').filter({ has: page.getByRole('dialog', { name, exact: true }) });
}

export function termsPrompt(page: Page) {
  return modalNamed(page, TERMS_PROMPT_TITLE);
}

/**
 * Opens the cloud password with `button` (More's "Cloud password" by default), accepting the
 * terms first when they are asked for, and waits for the modal titled `title` to be painted.
 */
export async function openCloudPassword(
  page: Page,
  title: string,
  button = page.getByRole('button', { name: 'Cloud password', exact: true }),
): Promise<void> {
  await button.click();
  const modal = modalNamed(page, title);
  await expect(modal.or(termsPrompt(page))).toBeVisible({ timeout: 15_000 });
  if (await termsPrompt(page).isVisible()) await acceptTerms(page);
  await expectPainted(modal.getByText(title, { exact: true }));
}

/** Accepts the terms in the prompt that asks for them. */
export async function acceptTerms(page: Page): Promise<void> {
  const prompt = termsPrompt(page);
  await expectPainted(prompt.getByText(TERMS_PROMPT_TITLE, { exact: true }));
  await prompt.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(prompt).toBeHidden();
}

/** Types a password into the modal: twice when it asks for a new one. */
export async function typeCloudPassword(page: Page, password: string): Promise<void> {
  await page.getByLabel('Cloud password', { exact: true }).fill(password);
  const repeat = page.getByLabel('Repeat cloud password', { exact: true });
  if ((await repeat.count()) > 0) await repeat.fill(password);
}

/**
 * What the cloud password's work said once the sheet closed: a status toast with `text` (issue
 * 40: no dialog, no OK to press; the toast leaves by itself after 4 s), the sheet gone.
 */
export async function expectCloudPasswordNotice(page: Page, text: string | RegExp): Promise<void> {
  const notice = page.locator('ion-toast').getByRole('status').filter({ hasText: text });
  // Argon2id (64 MiB, three passes) runs twice for a new key, about a second on an idle machine;
  // on a machine busy with other work it has taken over 30 s.
  await expect(notice).toBeVisible({ timeout: 90_000 });
  await expect(cloudPasswordModal(page)).toBeHidden();
  await expect(page.getByRole('alertdialog', { name: 'Cloud password' })).toHaveCount(0);
}

/** Opens the modal from the More tab, types the password and presses Go. */
export async function submitCloudPassword(
  page: Page,
  title: string,
  password: string,
  notice: string | RegExp,
): Promise<void> {
  await openCloudPassword(page, title);
  await typeCloudPassword(page, password);
  await cloudPasswordModal(page).getByRole('button', { name: 'Go' }).click();
  await expectCloudPasswordNotice(page, notice);
}

/** Within seconds, on a machine that may be busy. */
export const SOON = { timeout: 20_000 };

/**
 * Two devices of a new user, both syncing: the first sets the cloud password, the second signs
 * in and enters it. Each may talk to its own server (`origins`).
 */
export async function twoSyncingDevices(
  browser: Browser,
  cloudPassword: string,
  origins: readonly [string, string] | [] = [],
): Promise<{ first: Page; second: Page; email: string }> {
  const email = uniqueEmail();
  const first = await signedInDevice(browser, email, true, origins[0]);
  await expect(first.getByText('Set a cloud password to start syncing.')).toBeVisible(SOON);
  await submitCloudPassword(
    first,
    'Set a cloud password',
    cloudPassword,
    'The cloud password is set.',
  );
  await expect(first.getByText(/^Up to date\./)).toBeVisible(SOON);

  const second = await anotherSyncingDevice(browser, email, cloudPassword, origins[1]);
  return { first, second, email };
}

/** One more device of `email`'s user: signed in, the cloud password entered, up to date. */
export async function anotherSyncingDevice(
  browser: Browser,
  email: string,
  cloudPassword: string,
  baseURL?: string,
): Promise<Page> {
  const page = await signedInDevice(browser, email, false, baseURL);
  await expect(page.getByText('Enter your cloud password to sync this device.')).toBeVisible(SOON);
  await submitCloudPassword(
    page,
    'Enter your cloud password',
    cloudPassword,
    'This device now has the cloud password.',
  );
  await expect(page.getByText(/^Up to date\./)).toBeVisible(SOON);
  return page;
}

/** How many rows each of `tables` holds in the device's IndexedDB. */
export async function storedCounts<T extends string>(
  page: Page,
  tables: readonly T[],
): Promise<Record<T, number>> {
  return page.evaluate(
    (names) =>
      new Promise<Record<string, number>>((resolve, reject) => {
        const open = indexedDB.open(localStorage.getItem('docket.database') ?? 'docket');
        open.onerror = () => {
          reject(new Error(String(open.error)));
        };
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(names);
          const counts: Record<string, number> = {};
          for (const name of names) {
            const request = tx.objectStore(name).count();
            request.onsuccess = () => {
              counts[name] = request.result;
            };
          }
          tx.oncomplete = () => {
            db.close();
            resolve(counts);
          };
          tx.onerror = () => {
            reject(new Error(String(tx.error)));
          };
        };
      }),
    [...tables],
  );
}

/**
 * What a device's trace and outbox hold, as text: printed when a sync test fails, so a failure
 * that happens once in many runs says what each device's runs did (pushed, pulled, reverted).
 */
export async function syncDump(page: Page): Promise<string> {
  if (page.isClosed()) return '(closed)';
  return page
    .evaluate(
      () =>
        new Promise<string>((resolve, reject) => {
          const open = indexedDB.open(localStorage.getItem('docket.database') ?? 'docket');
          open.onerror = () => {
            reject(new Error(String(open.error)));
          };
          open.onsuccess = () => {
            const db = open.result;
            const tx = db.transaction(['trace', 'outbox', 'settings']);
            const trace = tx.objectStore('trace').getAll();
            const outbox = tx.objectStore('outbox').getAll();
            const settings = tx.objectStore('settings').getAll();
            tx.oncomplete = () => {
              db.close();
              const lines = (trace.result as { at?: string; kind?: string; details?: unknown }[])
                .filter((entry) => entry.kind?.startsWith('sync') === true)
                .map(
                  (entry) =>
                    `${entry.at ?? ''} ${entry.kind ?? ''} ${JSON.stringify(entry.details)}`,
                );
              const outboxRows = (outbox.result as { table?: string; rowId?: string }[]).map(
                (entry) => `${entry.table ?? ''}/${entry.rowId ?? ''}`,
              );
              const cursor = (settings.result as { key: string; value: unknown }[])
                .filter((row) => row.key.includes('cursor') || row.key.includes('reset-made'))
                .map((row) => `${row.key}=${JSON.stringify(row.value)}`);
              resolve(
                [
                  ...lines,
                  `outbox: ${outboxRows.join(', ')}`,
                  `settings: ${cursor.join(', ')}`,
                ].join('\n'),
              );
            };
            tx.onerror = () => {
              reject(new Error(String(tx.error)));
            };
          };
        }),
    )
    .catch((error: unknown) => `(could not read: ${String(error)})`);
}
