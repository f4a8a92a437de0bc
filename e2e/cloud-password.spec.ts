import AxeBuilder from '@axe-core/playwright';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import { expect, test } from '@playwright/test';
import { uniqueEmail } from './pages/login-page.ts';
import {
  cloudPasswordModal,
  expectCloudPasswordNotice,
  openCloudPassword,
  signedInDevice,
} from './pages/sync-device.ts';

// The cloud password modal of spec §2 on two devices of one user (two browser contexts): set on
// the first, entered on the second, changed on the first. The server only ever sees the verifier
// and the wrapped key.

const cloudPassword = 'tulip lantern 42 river';

const modal = cloudPasswordModal;
const expectNotice = expectCloudPasswordNotice;

test('set on one device, entered on another, changed on the first', async ({ browser }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail();
  const first = await signedInDevice(browser, email, true);

  await openCloudPassword(first, 'Set a cloud password');
  const field = first.getByLabel('Cloud password', { exact: true });
  const go = modal(first).getByRole('button', { name: 'Go' });
  // No password exists yet: no Close, no Reset; Go waits for a password.
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
  await field.fill(cloudPassword);
  // Hidden by default, shown in plain text on request.
  await expect(field).toHaveAttribute('type', 'password');
  await modal(first).getByRole('button', { name: 'Show password' }).click();
  await expect(field).toHaveAttribute('type', 'text');
  const scan = await new AxeBuilder({ page: first }).include('ion-modal').analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual(
    [],
  );
  await go.click();
  await expectNotice(first, 'The cloud password is set.');

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
  await openCloudPassword(second, 'Enter your cloud password');
  await second.getByLabel('Cloud password', { exact: true }).fill('not it');
  await modal(second).getByRole('button', { name: 'Go' }).click();
  await expectNotice(second, 'That is not the cloud password.');
  await openCloudPassword(second, 'Enter your cloud password');
  // A device without the password may reset it: the reset view has its own title, the spec's
  // explanation of the two ways, Cancel, and Reset password, disabled while the field is empty.
  await modal(second).getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(modal(second).getByText('Reset cloud password', { exact: true })).toBeVisible();
  await expect(modal(second)).toContainText(
    'After changing the password on another device, the data re-syncs from that device and this device then uses the new password.',
  );
  await expect(modal(second)).toContainText(
    "Resetting from this device makes other devices revert to this device's data on re-sync.",
  );
  await expect(modal(second).getByRole('button', { name: 'Reset password' })).toBeDisabled();
  await second.getByLabel('Cloud password', { exact: true }).fill('typed, then cancelled');
  await expect(modal(second).getByRole('button', { name: 'Reset password' })).toBeEnabled();
  await modal(second).getByRole('button', { name: 'Cancel' }).click();
  await expect(modal(second).getByText('Enter your cloud password', { exact: true })).toBeVisible();
  await second.getByLabel('Cloud password', { exact: true }).fill(cloudPassword);
  await modal(second).getByRole('button', { name: 'Go' }).click();
  await expectNotice(second, 'This device now has the cloud password.');

  // The first device keeps its keys across a reload, so it offers a change, with Close.
  await first.reload();
  await openCloudPassword(first, 'Change cloud password');
  await expect(modal(first).getByRole('button', { name: 'Close' })).toBeVisible();
  // Changing is not resetting: this caller offers no Reset.
  await expect(modal(first).getByRole('button', { name: 'Reset', exact: true })).toHaveCount(0);
  await first.getByLabel('Cloud password', { exact: true }).fill('a brand new one');
  await modal(first).getByRole('button', { name: 'Go' }).click();
  await expectNotice(first, 'The cloud password is changed.');

  // The second device notices the change: it asks for the new password instead of offering to
  // write over it with its old keys.
  await second.reload();
  await openCloudPassword(second, 'Enter your cloud password');
  await second.getByLabel('Cloud password', { exact: true }).fill(cloudPassword);
  await modal(second).getByRole('button', { name: 'Go' }).click();
  await expectNotice(second, 'That is not the cloud password.');
  await openCloudPassword(second, 'Enter your cloud password');
  await second.getByLabel('Cloud password', { exact: true }).fill('a brand new one');
  await modal(second).getByRole('button', { name: 'Go' }).click();
  await expectNotice(second, 'This device now has the cloud password.');
  await openCloudPassword(second, 'Change cloud password');
  await modal(second).getByRole('button', { name: 'Close' }).click();
  await expect(modal(second)).toBeHidden();
});
