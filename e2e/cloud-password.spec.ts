import { seriousViolations } from './pages/accessibility.ts';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { uniqueEmail } from './pages/login-page.ts';
import { expectPainted, expectScreenPainted, screenshotsAtBothSizes } from './pages/painted.ts';
import {
  cloudPasswordModal,
  expectCloudPasswordNotice,
  modalNamed,
  openCloudPassword,
  signedInDevice,
  SOON,
  typeCloudPassword,
} from './pages/sync-device.ts';

// The cloud password modal of spec §2 on two devices of one user (two browser contexts): set on
// the first (typed twice, at least 10 characters, with a strength hint; each step of the work
// after Go said), entered on the second (a wrong one refused under the field), changed on the
// first. The server only ever sees the verifier and the wrapped key.

const cloudPassword = 'tulip lantern 42 river';

const modal = cloudPasswordModal;
const expectNotice = expectCloudPasswordNotice;

/** Records every text the modal's progress line shows, however briefly. */
async function recordWorkSteps(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { workSteps: string[] }).workSteps = seen;
    new MutationObserver(() => {
      const text = document.querySelector('.cloud-password-work p')?.textContent ?? '';
      if (text !== '' && seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { workSteps: string[] }).workSteps);
}

/** The dialog's accessible name is its visible title. */
async function expectNamedByTitle(page: Page, title: string): Promise<Locator> {
  await expect(page.getByRole('dialog', { name: title, exact: true })).toHaveCount(1);
  const named = modalNamed(page, title);
  await expectPainted(named.locator('ion-header').getByText(title, { exact: true }));
  return named;
}

test('set on one device, entered on another, changed on the first', async ({ browser }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail();
  const first = await signedInDevice(browser, email, true);
  await expectScreenPainted(first);

  // No cloud password yet: "Set up sync" is the primary button, "Sync now" is not.
  const setUp = first.getByRole('button', { name: 'Set up sync' });
  await expectPainted(setUp);
  await expect(first.locator('ion-button', { hasText: 'Sync now' })).toHaveAttribute(
    'fill',
    'outline',
  );
  await openCloudPassword(first, 'Set a cloud password', setUp);
  await expectNamedByTitle(first, 'Set a cloud password');
  const field = first.getByLabel('Cloud password', { exact: true });
  const repeat = first.getByLabel('Repeat cloud password', { exact: true });
  const go = modal(first).getByRole('button', { name: 'Go' });
  // No password exists yet: no Close, no Reset; Go waits for a valid password.
  await expect(modal(first).getByRole('button', { name: 'Close' })).toHaveCount(0);
  await expect(modal(first).getByRole('button', { name: 'Reset' })).toHaveCount(0);
  await expect(go).toBeDisabled();
  // A sheet that opens at breakpoint 0.8: its top a fifth of the way down the window.
  const sheet = first.getByRole('dialog', { name: 'Set a cloud password' });
  await expect
    .poll(async () => {
      const box = await sheet.boundingBox();
      const height = first.viewportSize()?.height ?? 0;
      return box === null || height === 0 ? null : Math.round((box.y / height) * 100) / 100;
    })
    .toBeCloseTo(0.2, 1);

  // Too short: said under the field, with a strength hint; Go stays disabled.
  await field.fill('short one');
  await expectPainted(modal(first).getByText('Use at least 10 characters (9 so far).'));
  await expectPainted(modal(first).getByText(/^Strength: too short\./));
  await repeat.fill('short one');
  await expect(go).toBeDisabled();
  // Long enough, but the two differ: refused until they match.
  await field.fill(cloudPassword);
  await expectPainted(modal(first).getByText('Strength: very strong.'));
  await repeat.fill(`${cloudPassword}!`);
  await expectPainted(modal(first).getByText('The two cloud passwords are not the same.'));
  await expect(go).toBeDisabled();
  await repeat.fill(cloudPassword);
  await expect(go).toBeEnabled();

  // Hidden by default, shown in plain text on request.
  await expect(field).toHaveAttribute('type', 'password');
  await modal(first).getByRole('button', { name: 'Show password' }).first().click();
  await expect(field).toHaveAttribute('type', 'text');
  expect(await seriousViolations(first, 'ion-modal')).toEqual([]);
  const steps = await recordWorkSteps(first);
  await go.click();
  await expectNotice(first, 'The cloud password is set.');
  // The work after Go said what it was doing and how far it was, step by step.
  expect(await steps()).toEqual([
    'Step 1 of 3: Deriving the key…',
    'Step 2 of 3: Saving the wrapped key on the Docket server…',
    'Step 3 of 3: Keeping the key on this device…',
  ]);
  await expect(first.getByText(/^Up to date\./)).toBeVisible(SOON);

  // What the server keeps: a verifier and a wrapped key, never the password.
  const stored = await first.evaluate(
    async ({ header, version }) => {
      const answer = await fetch('/api/sync/settings', { headers: { [header]: version } });
      return answer.text();
    },
    { header: PROTOCOL_HEADER, version: String(PROTOCOL_VERSION) },
  );
  expect(stored).toContain('$argon2id$');
  expect(stored).not.toContain(cloudPassword);

  const second = await signedInDevice(browser, email, false);
  await expectScreenPainted(second);
  await expect(second.getByText('Enter your cloud password to sync this device.')).toBeVisible(
    SOON,
  );
  // Sync now, with the password needed, opens the modal (spec §4's waiting for the password).
  await openCloudPassword(
    second,
    'Enter your cloud password',
    second.getByRole('button', { name: 'Sync now' }),
  );
  // Entering an existing password asks for it once, with no length rule.
  await expect(second.getByLabel('Repeat cloud password', { exact: true })).toHaveCount(0);
  // Reset stands apart from Go: at the start of the footer; Go, wide, fills the rest to its end.
  const resetBox = await modal(second)
    .getByRole('button', { name: 'Reset', exact: true })
    .boundingBox();
  const goBox = await modal(second).getByRole('button', { name: 'Go' }).boundingBox();
  const width = second.viewportSize()?.width ?? 0;
  expect(resetBox?.x ?? width).toBeLessThan(width / 2);
  expect(goBox?.x ?? 0).toBeGreaterThan((resetBox?.x ?? width) + (resetBox?.width ?? 0));
  expect(goBox?.width ?? 0).toBeGreaterThan(2 * (resetBox?.width ?? width));
  await screenshotsAtBothSizes(second, 'cloud-password-enter');

  // A wrong password: the modal stays open and says so under the field.
  await second.getByLabel('Cloud password', { exact: true }).fill('not it');
  await modal(second).getByRole('button', { name: 'Go' }).click();
  await expectPainted(
    modal(second).getByRole('alert').filter({ hasText: 'That is not the cloud password.' }),
    90_000,
  );
  await expectNamedByTitle(second, 'Enter your cloud password');
  // Editing the password takes the refusal away.
  await second.getByLabel('Cloud password', { exact: true }).fill('not it either');
  await expect(modal(second).getByText('That is not the cloud password.')).toHaveCount(0);

  // A device without the password may reset it: the reset view has its own title (which names
  // the dialog), the spec's explanation of the two ways, Cancel, and Reset password, disabled
  // while the form is invalid (a new password: typed twice). Reset pressed from the keyboard
  // leaves the focus where it was: the button there is now Cancel.
  await modal(second).getByRole('button', { name: 'Reset', exact: true }).focus();
  await second.keyboard.press('Enter');
  await expectNamedByTitle(second, 'Reset cloud password');
  await expect(modal(second).getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expect(modal(second)).toContainText(
    'After changing the password on another device, the data re-syncs from that device and this device then uses the new password.',
  );
  await expect(modal(second)).toContainText(
    "Resetting from this device makes other devices revert to this device's data on re-sync.",
  );
  await second.getByLabel('Cloud password', { exact: true }).fill('');
  await expect(modal(second).getByRole('button', { name: 'Reset password' })).toBeDisabled();
  await typeCloudPassword(second, 'typed, then cancelled');
  await expect(modal(second).getByRole('button', { name: 'Reset password' })).toBeEnabled();
  await modal(second).getByRole('button', { name: 'Cancel' }).focus();
  await second.keyboard.press('Enter');
  await expectNamedByTitle(second, 'Enter your cloud password');
  await expect(modal(second).getByRole('button', { name: 'Reset', exact: true })).toBeFocused();
  await second.getByLabel('Cloud password', { exact: true }).fill(cloudPassword);
  await modal(second).getByRole('button', { name: 'Go' }).click();
  await expectNotice(second, 'This device now has the cloud password.');
  await expectScreenPainted(second);

  // The first device keeps its keys across a reload, so it offers a change, with Close.
  await first.reload();
  await expectScreenPainted(first);
  await openCloudPassword(first, 'Change cloud password');
  await expect(modal(first).getByRole('button', { name: 'Close' })).toBeVisible();
  // Changing is not resetting: this caller offers no Reset.
  await expect(modal(first).getByRole('button', { name: 'Reset', exact: true })).toHaveCount(0);
  await typeCloudPassword(first, 'a brand new one');
  await modal(first).getByRole('button', { name: 'Go' }).click();
  await expectNotice(first, 'The cloud password is changed.');

  // The second device notices the change: it asks for the new password instead of offering to
  // write over it with its old keys.
  await second.reload();
  await expectScreenPainted(second);
  await openCloudPassword(second, 'Enter your cloud password');
  await second.getByLabel('Cloud password', { exact: true }).fill(cloudPassword);
  await modal(second).getByRole('button', { name: 'Go' }).click();
  await expectPainted(modal(second).getByText('That is not the cloud password.'), 90_000);
  await second.getByLabel('Cloud password', { exact: true }).fill('a brand new one');
  await modal(second).getByRole('button', { name: 'Go' }).click();
  await expectNotice(second, 'This device now has the cloud password.');
  await openCloudPassword(second, 'Change cloud password');
  await modal(second).getByRole('button', { name: 'Close' }).click();
  await expect(modal(second)).toBeHidden();
});
