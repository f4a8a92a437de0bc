import { TERMS_VERSION } from '@docket/protocol/terms';
import { expect, test } from './fixtures.ts';
import { uniqueEmail } from './pages/login-page.ts';
import { expectPainted, expectScreenPainted, isPainted } from './pages/painted.ts';
import {
  acceptTerms,
  cloudPasswordModal,
  expectCloudPasswordNotice,
  modalNamed,
  signedInDevice,
  SOON,
  submitCloudPassword,
  termsPrompt,
  TERMS_PROMPT_TITLE,
  typeCloudPassword,
} from './pages/sync-device.ts';

// The terms say Docket asks for their acceptance before it syncs: it asks before the first
// sync (before the first cloud password), and again on a device that holds the keys once the
// accepted version is no longer the current one. Nothing syncs until they are accepted.

test('a new account is asked to accept the terms before its first sync', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedInDevice(browser, uniqueEmail(), true);
  await expectScreenPainted(page);
  await expect(page.getByText('Set a cloud password to start syncing.')).toBeVisible(SOON);

  // "Set up sync" asks for the terms first; "Not now" leaves everything as it was.
  await page.getByRole('button', { name: 'Set up sync' }).click();
  await expectPainted(termsPrompt(page).getByText(TERMS_PROMPT_TITLE, { exact: true }));
  await expectPainted(termsPrompt(page).getByText(/^Docket syncs your work, end-to-end encrypted/));
  await expect(termsPrompt(page).getByRole('article', { name: 'Terms of service' })).toContainText(
    `Version ${TERMS_VERSION}`,
  );
  await termsPrompt(page).getByRole('button', { name: 'Not now' }).click();
  await expect(termsPrompt(page)).toBeHidden();
  await expect(cloudPasswordModal(page)).toBeHidden();
  await expectScreenPainted(page);

  // Asked again: accepted, and the cloud password follows.
  await page.getByRole('button', { name: 'Set up sync' }).click();
  await acceptTerms(page);
  await expectPainted(
    modalNamed(page, 'Set a cloud password').getByText('Set a cloud password', { exact: true }),
  );
  await typeCloudPassword(page, 'meadow quartz 19 lantern');
  await cloudPasswordModal(page).getByRole('button', { name: 'Go' }).click();
  await expectCloudPasswordNotice(page, 'The cloud password is set.');
  await expect(page.getByText(/^Up to date\./)).toBeVisible(SOON);

  // The acceptance is the user's, kept by the server: the terms screen says so.
  await page.goto('/terms-of-service');
  await expectScreenPainted(page);
  await expectPainted(page.getByText(new RegExp(`^You accepted version ${TERMS_VERSION} on `)));
  await expect(page.getByRole('button', { name: 'Accept', exact: true })).toHaveCount(0);
});

test('a device with the keys asks again when the terms changed, and syncs only once accepted', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const page = await signedInDevice(browser, uniqueEmail(), true);
  await expectScreenPainted(page);
  await submitCloudPassword(
    page,
    'Set a cloud password',
    'meadow quartz 19 lantern',
    'The cloud password is set.',
  );
  await expect(page.getByText(/^Up to date\./)).toBeVisible(SOON);

  // New terms: the server now says the user accepted an older version.
  await page.route('**/api/terms/acceptance', async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    return route.fulfill({
      json: {
        currentVersion: TERMS_VERSION,
        accepted: { version: '2025-01-01', acceptedAt: '2025-01-02T10:00:00.000Z' },
      },
    });
  });
  const pushes: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/sync/push')) pushes.push(request.url());
  });
  await page.reload();
  // Asked at once, over whatever screen is open; nothing is pushed meanwhile.
  await expectPainted(termsPrompt(page).getByText(TERMS_PROMPT_TITLE, { exact: true }), 20_000);
  await termsPrompt(page).getByRole('button', { name: 'Not now' }).click();
  await expect(termsPrompt(page)).toBeHidden();
  await expectScreenPainted(page);
  await expectPainted(page.getByText(/^Accept the terms of service to sync\./));
  await expectPainted(
    page.locator('ion-header').last().getByRole('button', { name: 'Accept terms' }),
  );
  // Not asked again by itself…
  await page.waitForTimeout(1_000);
  expect(await isPainted(termsPrompt(page).getByText(TERMS_PROMPT_TITLE, { exact: true }))).toBe(
    false,
  );
  // …but "Sync now" puts the terms back; accepting them lets sync start.
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expectPainted(termsPrompt(page).getByText(TERMS_PROMPT_TITLE, { exact: true }));
  expect(pushes).toEqual([]);
  await termsPrompt(page).getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(termsPrompt(page)).toBeHidden();
  // The prompt closing says nothing by itself: the acceptance is said as a polite status.
  await expect(page.getByRole('status').filter({ hasText: 'Terms accepted.' })).toBeVisible(SOON);
  await expect(page.getByText(/^Up to date\./)).toBeVisible(SOON);
});
