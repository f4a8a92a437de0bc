import { chromium, type Page } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import config, { baseURL } from '../playwright.config.ts';
import { expect, test } from './fixtures.ts';
import {
  AnnotationPage,
  sampleBillId,
  sampleFile,
  samplePassage,
} from './pages/annotation-page.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { signUpWithDataset } from './pages/dataset-pages.ts';
import { FullBackupsPage } from './pages/full-backup-pages.ts';
import { goodPassword, LoginPage, signOut, signUpAt } from './pages/login-page.ts';
import { expectPainted, screenshotsAtBothSizes } from './pages/painted.ts';

// Locked means unreadable (issue 38). One persistent browser profile, as a shared laptop keeps
// it: X writes a note, a position's Why and a tag, signs out keeping the work; the profile folder
// is then searched, byte by byte, for those words. None is there: the rows were written sealed
// under a key only X's password opens, and the key left with the sign-out. Signed in again, X
// has it all back. Removed, the database and the vault are gone, and the words with them.

test.describe.configure({ timeout: 240_000 });

const NOTE = 'Whistleblower J.D. phone 555-0199';
const WHY = 'Quietly funded by Harbourline Freight';
const TAG = 'Sources Kestrel';
const BACKUP_PASSPHRASE = 'Quillfeather backup passphrase 9';

/** Every file of the profile, read whole (the browser writes its logs as it goes). */
function profileFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    let stats;
    try {
      stats = statSync(path);
    } catch {
      continue; // a file the browser just deleted
    }
    if (stats.isDirectory()) files.push(...profileFiles(path));
    else if (stats.isFile()) files.push(path);
  }
  return files;
}

/** The words found in the profile's files, as UTF-8 (or Latin-1) or as UTF-16 (V8's two-byte strings). */
function wordsFound(folder: string, words: readonly string[]): string[] {
  const needles = words.flatMap((word) => [
    { word, bytes: Buffer.from(word, 'utf8') },
    { word, bytes: Buffer.from(word, 'utf16le') },
  ]);
  const found = new Set<string>();
  for (const path of profileFiles(folder)) {
    let content: Buffer;
    try {
      content = readFileSync(path);
    } catch {
      continue;
    }
    for (const { word, bytes } of needles) if (content.includes(bytes)) found.add(word);
  }
  return [...found].sort();
}

/** The accounts' databases on the page's origin (the signed-out pages' own, 'docket', aside). */
function accountDatabases(page: Page): Promise<string[]> {
  return page.evaluate(async () =>
    (await indexedDB.databases())
      .map(({ name }) => name ?? '')
      .filter((name) => /^docket-[0-9a-f]{32}$/.test(name)),
  );
}

test('a signed-out account’s note, Why and tag are nowhere in the browser profile; removed, nothing is left', async ({
  browserName,
}, testInfo) => {
  expect(browserName).toBe('chromium');
  const profile = testInfo.outputPath('profile');
  const context = await chromium.launchPersistentContext(profile, {
    baseURL,
    ...config.use?.launchOptions,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const login = new LoginPage(page);
    const email = await signUpWithDataset(page, 'Library bills', [
      sampleFile('annotation-bill.csv'),
    ]);

    const details = new BillDetailsPage(page);
    await details.openBill(sampleBillId, 'HB 4242');
    await details.position('Oppose').check();
    await details.why().fill(WHY);
    await expectPainted(details.reasonSaved());
    await details.addTag(TAG, { create: true });

    const annotation = new AnnotationPage(page);
    await annotation.open(sampleBillId);
    await annotation.selectWithKeyboard(samplePassage);
    await annotation.note().fill(NOTE);
    await annotation.save().click();
    await expect(annotation.status('Highlight saved.')).toBeVisible();

    // X sets a passphrase for backups made while signed out (a colleague may keep such a file).
    await page.goto('/add-full-backup');
    // Typed, Tab, typed, Enter at once: the form takes what the fields hold, not a state a
    // keystroke behind.
    await page.getByLabel('Passphrase for backups made while signed out', { exact: true }).focus();
    await page.keyboard.type(BACKUP_PASSPHRASE);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Repeat passphrase', { exact: true })).toBeFocused();
    await page.keyboard.type(BACKUP_PASSPHRASE);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'The passphrase is set' })).toBeVisible(
      { timeout: 60_000 },
    );

    await page.goto('/tabs/more');
    await signOut(page, 'Keep on this device, locked');
    // The search finds what is in clear: the bill's own text, public, stored as it came.
    await expect.poll(() => wordsFound(profile, [samplePassage])).toEqual([samplePassage]);
    expect(wordsFound(profile, [NOTE, WHY, TAG, BACKUP_PASSPHRASE])).toEqual([]);
    // A full backup made signed out cannot hold the locked work, and says so.
    await page.goto('/add-full-backup');
    await expect(
      page.getByRole('note').filter({
        hasText:
          'The work of 1 account is kept locked on this device and is not in a backup made here.',
      }),
    ).toBeVisible();
    // Its locked work can still be saved as it is: the file opens only with X's password.
    await page.getByRole('button', { name: 'Back up locked account 1', exact: true }).click();
    await expect(page.getByText(/Created the full backup "Locked account 1 /)).toBeVisible({
      timeout: 90_000,
    });
    await new FullBackupsPage(page)
      .list()
      .getByRole('listitem')
      .filter({ hasText: 'Locked account 1' })
      .getByRole('button', { name: 'Restore', exact: true })
      .click();
    await expect(page).toHaveURL(/\/full-backup-preview\//);
    const accountPassword = page
      .getByLabel('Account password', { exact: true })
      .filter({ visible: true });
    const open = page.getByRole('button', { name: 'Open', exact: true }).filter({ visible: true });
    await accountPassword.fill('not the password 1');
    await open.click();
    await expect(
      page.getByRole('alert').filter({ hasText: "That does not open this account's work" }),
    ).toBeVisible({ timeout: 60_000 });
    // The passphrase X set opens it, as X's password would (core's tests open it with both).
    await accountPassword.fill(BACKUP_PASSPHRASE);
    await open.click();
    await expect(page.getByRole('heading', { name: 'What this full backup holds' })).toBeVisible({
      timeout: 60_000,
    });
    await expect(page.getByText(/^Yes: an account’s work, locked on its device/)).toBeVisible();
    expect(wordsFound(profile, [NOTE, WHY, TAG, BACKUP_PASSPHRASE])).toEqual([]);

    // X signs in again: the password opens it all.
    await login.open();
    await login.signIn(email, goodPassword);
    await expect(page).toHaveURL('/tabs/bills', { timeout: 15_000 });
    await details.openBill(sampleBillId, 'HB 4242');
    await expect(details.why()).toHaveValue(WHY);
    await expect(details.tagsOnBill().getByText(TAG, { exact: true })).toBeVisible();
    await annotation.open(sampleBillId);
    await expect(annotation.highlights()).toContainText(NOTE);
    expect(wordsFound(profile, [NOTE, WHY, TAG, BACKUP_PASSPHRASE])).toEqual([]);

    // Removed: the database goes with the next page, and its vault with it.
    await page.goto('/tabs/more');
    await signOut(page, 'Remove from this device');
    // X's database is gone; what the signed-out pages opened holds none of X's words (below).
    await expect.poll(() => accountDatabases(page)).toEqual([]);
    expect(wordsFound(profile, [NOTE, WHY, TAG, BACKUP_PASSPHRASE])).toEqual([]);
  } finally {
    await context.close();
  }
});

test('a session the app holds without the password (an older version kept it) asks for the password before anything is written', async ({
  page,
}) => {
  const email = await signUpAt(page);
  await page.goto('/tabs/more');
  await signOut(page, 'Remove from this device');
  // A session made without the sign-in form, as an app version older than vaults left it: the
  // server knows it, but nothing on the device holds the password to make the account's vault.
  const signIn = await page.request.post('/api/auth/sign-in/email', {
    data: { email, password: goodPassword },
    headers: { origin: baseURL },
  });
  expect(signIn.ok()).toBe(true);

  await page.goto('/tabs/bills');
  await expect(page).toHaveURL(/\/login/, { timeout: 20_000 });
  const notice = page
    .getByRole('status')
    .filter({ hasText: 'Sign in with your password once more' });
  await expectPainted(notice, 15_000);
  // No account's database is active: nothing the session did was written in clear.
  expect(await page.evaluate(() => localStorage.getItem('docket.database'))).toBeNull();
  await screenshotsAtBothSizes(page, 'password-needed');

  // The form knows whose password it asks for: only the password is typed.
  const login = new LoginPage(page);
  await expect(login.email()).toHaveValue(email);
  await login.password().fill(goodPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL('/tabs/bills', { timeout: 20_000 });
  await expect(notice).toHaveCount(0);
  // The password made the account's vault: its lock is kept beside the database.
  const vaultFiles = await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const folder = await root.getDirectoryHandle('docket-vaults');
    const names: string[] = [];
    for await (const name of (folder as unknown as { keys(): AsyncIterable<string> }).keys()) {
      names.push(name);
    }
    return names;
  });
  const database = await page.evaluate(() => localStorage.getItem('docket.database'));
  expect(vaultFiles).toContain(`${database ?? ''}.lock`);
});
