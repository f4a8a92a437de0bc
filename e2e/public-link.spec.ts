import { openLinkContents } from '@docket/core/backups';
import type { WebCryptoPort } from '@docket/core/crypto';
import { expect, test } from './fixtures.ts';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BackupLinkPage, BackupsPage, SLOW } from './pages/backup-pages.ts';
import { seriousViolations } from './pages/accessibility.ts';
import { AnnotationPage } from './pages/annotation-page.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { AddDatasetPage, JobsPage } from './pages/dataset-pages.ts';
import { BillTagsPage } from './pages/bill-tags-page.ts';
import { goodPassword, LoginPage, uniqueEmail } from './pages/login-page.ts';
import { expectPainted, screenshotsAtBothSizes } from './pages/painted.ts';
import { modalNamed, signedInDevice, submitCloudPassword } from './pages/sync-device.ts';
import { TrackedPage } from './pages/tracked-page.ts';

// A backup published as a public link: opened in a fresh, signed-out browser it shows the bill,
// its tag and the note on it; a damaged or missing key says so; once revoked, the link says it
// was revoked. The sharer chooses what goes in: what is left out is absent from the link's
// decrypted payload, and the page is headed by the backup's name, description and date. A
// position's reason ("Why") shows as text on the backup's preview and on the link's page, and
// the sharer's list of links says what each holds.

const sample = join(dirname(fileURLToPath(import.meta.url)), 'samples', 'details-hostile.csv');
const tenantBill = 'us-wa/2025-2026-regular-session/hb-4242';
const companionBill = 'us-wa/2025-2026-regular-session/hb-4243';
const notedPassage = 'AN ACT relating to tenants';
const note = 'Ask the sponsor <b>why</b> = leases only';
const reason = 'Keeps rents fair <img src=x onerror=window.__pwned=1> for small landlords too';

test('a public link opens signed out, says when its key is wrong, and says when it is revoked', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const owner = await signedInDevice(browser, uniqueEmail(), true);
  await submitCloudPassword(
    owner,
    'Set a cloud password',
    'link lantern 9',
    'The cloud password is set.',
  );
  await owner.goto('/add-dataset');
  await new AddDatasetPage(owner).add('Tenant bills', [sample]);
  await new JobsPage(owner).expectStatus('Tenant bills', 'Done');
  const details = new BillDetailsPage(owner);
  await details.openBill(tenantBill, 'HB 4242');
  await details.addTag('Renters', { create: true });
  const annotation = new AnnotationPage(owner);
  await annotation.open(tenantBill);
  await annotation.selectWithMouse(notedPassage);
  await expect(annotation.selectedPassage()).toHaveText(notedPassage);
  await annotation.note().fill(note);
  await annotation.save().click();
  await expect(annotation.status('Highlight saved.')).toBeVisible();

  const backups = new BackupsPage(owner);
  await backups.open();
  await backups.create('Shared set', '');
  await backups.share('Shared set');
  const linkPage = new BackupLinkPage(owner);
  const link = await linkPage.create();
  expect(await seriousViolations(owner)).toEqual([]);

  // Someone else, never signed in, in a browser of their own.
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await viewer.goto(link);
  // Headed by the backup's own name once open ("Shared bills" is only the wait's heading).
  await expect(
    viewer.getByRole('heading', { level: 1, name: 'Shared set', exact: true }),
  ).toBeVisible(SLOW);
  const bill = viewer
    .getByRole('list', { name: 'Bills' })
    .getByRole('listitem')
    .filter({
      has: viewer.getByRole('heading', { name: /^HB 4242:/ }),
    });
  await expect(bill.getByRole('list', { name: 'Tags of HB 4242' })).toHaveText('Renters');
  const notes = bill.getByRole('list', { name: 'Notes on HB 4242' });
  await expect(notes.getByRole('listitem')).toHaveCount(1);
  await expect(notes).toContainText(notedPassage);
  await expect(notes.getByText(note, { exact: true })).toBeVisible();
  // The app's own bill view, read-only.
  await bill.getByRole('button', { name: 'Show the bill HB 4242' }).click();
  await expect(bill.getByRole('heading', { name: /^Actions \(\d+\)$/ })).toBeVisible();
  await expect(bill.getByRole('heading', { name: 'Sponsors', exact: true })).toBeVisible();
  await expect(viewer.getByRole('link', { name: 'Sign in to import' })).toBeVisible();
  expect(await viewer.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await seriousViolations(viewer)).toEqual([]);
  // On a phone the hostile, long text wraps instead of pushing the page sideways.
  await viewer.setViewportSize({ width: 360, height: 740 });
  await expect(bill).toBeVisible();
  const sideways = await bill.evaluate((element) => element.scrollWidth > element.clientWidth + 1);
  expect(sideways).toBe(false);
  await viewer.setViewportSize({ width: 1280, height: 720 });

  // Signing in keeps the link, key included, and a signed-in viewer can import the set. The key
  // never leaves the page's own fragment on the way: no address sent, no header (a Referer), no
  // request body (the sign-up's callbackURL) carries it, and the sign-in page's address names the
  // link only. What the server is never sent, its log and its e-mails cannot hold.
  const linkKey = link.split('#k=')[1] ?? '';
  expect(linkKey.length).toBeGreaterThan(20);
  const carriers: string[] = [];
  viewer.on('request', (request) => {
    const headers = Object.values(request.headers()).join(' ');
    const sent = `${request.url().split('#', 1)[0] ?? ''} ${headers} ${request.postData() ?? ''}`;
    if (sent.includes(linkKey) || sent.includes(encodeURIComponent(linkKey))) {
      carriers.push(`${request.method()} ${request.url()}`);
    }
  });
  await viewer.getByRole('link', { name: 'Sign in to import' }).click();
  const login = new LoginPage(viewer);
  await login.waitForForm();
  expect(viewer.url()).not.toContain(linkKey);
  expect(viewer.url()).not.toContain(encodeURIComponent(linkKey));
  await login.createAccount(uniqueEmail(), goodPassword);
  await expect(viewer).toHaveURL(link, SLOW);
  expect(carriers).toEqual([]);
  await viewer.getByRole('button', { name: 'Import into my data' }).click();
  await expect(
    viewer.getByRole('status').filter({ hasText: /^Imported into your data/ }),
  ).toBeVisible(SLOW);
  const viewerTags = new BillTagsPage(viewer);
  await viewerTags.open();
  await expect(viewerTags.row('Renters')).toBeVisible();

  // The key is the fragment: without it, or with another, nothing opens, and the page says why.
  const [base] = link.split('#');
  await viewer.goto(`${base}`);
  await expect(viewer.getByRole('heading', { level: 1, name: 'This link has no key' })).toBeVisible(
    SLOW,
  );
  const otherKey = `k=${'A'.repeat(43)}`;
  await viewer.goto(`${base}#${otherKey}`);
  await expect(
    viewer.getByRole('heading', { level: 1, name: 'This link does not open' }),
  ).toBeVisible(SLOW);

  // The owner sees the views, then revokes. The link's key was not kept (the default): once the
  // screen that made it is left, the link cannot be copied again here.
  await owner.reload();
  await expect(owner.getByText(/^Opened [1-9]\d* times?$/)).toBeVisible(SLOW);
  await expectPainted(owner.getByText(/^Its key was not kept on this device/));
  await expect(linkPage.url()).toHaveCount(0);
  await linkPage.revoke();
  await viewer.goto(link);
  await expect(
    viewer.getByRole('heading', { level: 1, name: 'This link was revoked' }),
  ).toBeVisible(SLOW);
  expect(await seriousViolations(viewer)).toEqual([]);
  await viewerContext.close();
});

test('the sharer leaves notes out or lets dismissed bills in; the page is headed by the backup', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const owner = await signedInDevice(browser, uniqueEmail(), true);
  await submitCloudPassword(
    owner,
    'Set a cloud password',
    'link lantern 9',
    'The cloud password is set.',
  );
  await owner.goto('/add-dataset');
  await new AddDatasetPage(owner).add('Tenant bills', [sample]);
  await new JobsPage(owner).expectStatus('Tenant bills', 'Done');
  // HB 4242 tracked, tagged and noted; HB 4243 dismissed.
  const details = new BillDetailsPage(owner);
  await details.openBill(tenantBill, 'HB 4242');
  await details.decisionButton('Track').click();
  await expect(details.decisionButton('Track')).toHaveAttribute('aria-pressed', 'true');
  await details.addTag('Renters', { create: true });
  await details.position('Support').check();
  await expectPainted(details.toast('Position set to Support.'));
  await details.why().fill(reason);
  await expectPainted(details.reasonSaved());
  await details.openBill(companionBill, 'HB 4243');
  await details.decisionButton('Dismiss').click();
  await expect(details.decisionButton('Dismiss')).toHaveAttribute('aria-pressed', 'true');
  const annotation = new AnnotationPage(owner);
  await annotation.open(tenantBill);
  await annotation.selectWithMouse(notedPassage);
  await annotation.note().fill(note);
  await annotation.save().click();
  await expect(annotation.status('Highlight saved.')).toBeVisible();

  const backups = new BackupsPage(owner);
  await backups.open();
  const description = 'For the tenants’ coalition: what we follow this session.';
  await backups.create('Tenant watch', description);
  // The preview shows the reason under the position, as text.
  await backups.preview('Tenant watch');
  const previewed = owner
    .getByRole('list', { name: 'Bills' })
    .getByRole('listitem')
    .filter({ has: owner.getByRole('heading', { name: /^HB 4242:/ }) });
  await expect(previewed).toContainText('Position: Support');
  await expect(previewed.getByRole('term')).toHaveText('Why');
  await expectPainted(previewed.getByRole('definition').filter({ hasText: reason }));
  expect(await owner.locator('.backup-bill img').count()).toBe(0);
  expect(await seriousViolations(owner)).toEqual([]);
  await backups.open();
  await backups.share('Tenant watch');
  const linkPage = new BackupLinkPage(owner);
  // The defaults: dismissed bills out, decisions and notes in; the screen says what goes in.
  await expect(linkPage.choice('Dismissed bills')).not.toBeChecked();
  await expect(linkPage.choice('Decisions')).toBeChecked();
  await expect(linkPage.choice('Notes')).toBeChecked();
  await expect(
    owner.getByText('The link will hold 1 tracked bill, 1 tag, 1 position, notes included.'),
  ).toBeVisible();
  await linkPage.choice('Notes').uncheck();
  await expect(
    owner.getByText('The link will hold 1 tracked bill, 1 tag, 1 position, notes left out.'),
  ).toBeVisible();
  await expect(linkPage.keep()).not.toBeChecked();
  await linkPage.keep().check();
  const withoutNotes = await linkPage.create();
  // The list of links says what the link holds: kept on this device beside its key.
  const links = owner.getByRole('list', { name: 'Links' }).getByRole('listitem');
  await expectPainted(
    links
      .first()
      .getByText('Holds 1 tracked bill, 1 tag, 1 position, notes left out', { exact: true }),
  );
  expect(await seriousViolations(owner)).toEqual([]);
  // Kept on this device (sealed with the account's work): still there to copy after a reload.
  await owner.reload();
  await expect(linkPage.url()).toHaveValue(withoutNotes, SLOW);

  // What the server hands anyone, decrypted with the fragment's key: no note, no dismissed bill.
  const [base, fragment] = withoutNotes.split('#');
  const linkId = base?.split('/').pop() ?? '';
  const stored = await owner.request.get(`/api/links/${linkId}/public`);
  const { ciphertext } = (await stored.json()) as { ciphertext: string };
  const webCrypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;
  const payload = await openLinkContents(webCrypto, ciphertext, fragment?.slice(2) ?? null, linkId);
  expect(payload.contents.annotations).toEqual([]);
  expect(payload.contents.bills.map((bill) => bill.id)).toEqual([tenantBill]);
  const decrypted = JSON.stringify(payload);
  expect(decrypted).not.toContain('Ask the sponsor');
  expect(decrypted).not.toContain(companionBill);
  expect(payload).toMatchObject({ name: 'Tenant watch', description });

  // A reader elsewhere, never signed in, whose browser speaks German.
  const viewerContext = await browser.newContext({
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
  });
  const viewer = await viewerContext.newPage();
  await viewer.goto(withoutNotes);
  await expect(
    viewer.getByRole('heading', { level: 1, name: 'Tenant watch', exact: true }),
  ).toBeVisible(SLOW);
  await expect(viewer.getByText(description, { exact: true })).toBeVisible();
  const backedUp = viewer.locator('.shared-link-title time');
  const at = (await backedUp.getAttribute('datetime')) ?? '';
  const german = new Intl.DateTimeFormat('de-DE', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/Berlin',
  }).format(new Date(at));
  expect(german).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
  await expect(viewer.getByText(`Backed up ${german}`, { exact: true })).toBeVisible();
  await expect(
    viewer.getByText('This link holds 1 tracked bill, 1 tag, 1 position, notes left out.', {
      exact: true,
    }),
  ).toBeVisible();
  const bills = viewer.getByRole('list', { name: 'Bills' });
  await expect(
    bills.getByRole('listitem').filter({ has: viewer.getByRole('heading') }),
  ).toHaveCount(1);
  const tenant = bills.getByRole('listitem').filter({
    has: viewer.getByRole('heading', { name: /^HB 4242:/ }),
  });
  await expect(tenant.getByRole('list', { name: 'Tags of HB 4242' })).toHaveText('Renters');
  await expect(tenant).toContainText('Tracked');
  await expect(tenant).toContainText('Position: Support');
  await expect(tenant.getByRole('term')).toHaveText('Why');
  await expectPainted(tenant.getByRole('definition').filter({ hasText: reason }));
  expect(await viewer.locator('.backup-bill img').count()).toBe(0);
  expect(await viewer.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(viewer.getByRole('list', { name: 'Notes on HB 4242' })).toHaveCount(0);
  await expect(viewer.getByText(note)).toHaveCount(0);
  await expect(viewer.getByRole('heading', { name: /^HB 4243:/ })).toHaveCount(0);
  expect(await seriousViolations(viewer)).toEqual([]);

  // A second link with the dismissed bills let in: HB 4243 is there, marked Dismissed. The
  // reload above set the choices back to their defaults, notes included.
  await linkPage.choice('Notes').uncheck();
  await linkPage.choice('Dismissed bills').check();
  await expect(
    owner.getByText(
      'The link will hold 1 tracked bill, 1 dismissed bill, 1 tag, 1 position, notes left out.',
    ),
  ).toBeVisible();
  const withDismissed = await linkPage.create();
  expect(withDismissed).not.toBe(withoutNotes);
  // Newest first, each saying what it holds.
  await expect(links).toHaveCount(2);
  await expect(links.first()).toContainText(
    'Holds 1 tracked bill, 1 dismissed bill, 1 tag, 1 position, notes left out',
  );
  await expect(links.last()).toContainText(
    'Holds 1 tracked bill, 1 tag, 1 position, notes left out',
  );
  await viewer.goto(withDismissed);
  await expect(
    viewer.getByText(
      'This link holds 1 tracked bill, 1 dismissed bill, 1 tag, 1 position, notes left out.',
      { exact: true },
    ),
  ).toBeVisible(SLOW);
  const companion = bills.getByRole('listitem').filter({
    has: viewer.getByRole('heading', { name: /^HB 4243:/ }),
  });
  await expect(companion).toContainText('Dismissed');

  // What the server sent, cut short or changed, does not open, and the page says so.
  await viewer.route(`**/api/links/*/public`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { ciphertext: string };
    // Half, cut at a whole base64 quantum: the sealed bytes are short, the text is still base64.
    const cut = {
      ...body,
      ciphertext: body.ciphertext.slice(0, Math.floor(body.ciphertext.length / 8) * 4),
    };
    await route.fulfill({ response, json: cut });
  });
  await viewer.goto('about:blank');
  await viewer.goto(withDismissed);
  await expect(
    viewer.getByRole('heading', { level: 1, name: 'This link does not open' }),
  ).toBeVisible(SLOW);
  await expect(viewer.getByRole('alert')).toContainText('what the server sent was changed');
  await viewer.unroute(`**/api/links/*/public`);
  // A key cut short when the link was copied.
  await viewer.goto(withDismissed.slice(0, -10));
  await expect(
    viewer.getByRole('heading', { level: 1, name: 'This link’s key is damaged' }),
  ).toBeVisible(SLOW);
  expect(await seriousViolations(viewer)).toEqual([]);
  await viewerContext.close();
});

test('"Share" on the Tracked tab shares what the list shows, and the link reads as that list', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const owner = await signedInDevice(browser, uniqueEmail(), true);
  await submitCloudPassword(
    owner,
    'Set a cloud password',
    'link lantern 9',
    'The cloud password is set.',
  );
  // Headless Chromium here has no share sheet: one stands in, recording what it is handed. The
  // clipboard is allowed, so "Copy link" can be read back.
  await owner.context().addInitScript(() => {
    Object.defineProperty(navigator, 'share', {
      configurable: true,
      value: (data: ShareData) => {
        (window as { __shared?: ShareData }).__shared = data;
        return Promise.resolve();
      },
    });
  });
  await owner.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await owner.goto('/add-dataset');
  await new AddDatasetPage(owner).add('Tenant bills', [sample]);
  await new JobsPage(owner).expectStatus('Tenant bills', 'Done');
  // Both bills tagged Renters; HB 4242 tracked, HB 4243 set aside for Later.
  const details = new BillDetailsPage(owner);
  await details.openBill(tenantBill, 'HB 4242');
  await details.decisionButton('Track').click();
  await expect(details.decisionButton('Track')).toHaveAttribute('aria-pressed', 'true');
  await details.addTag('Renters', { create: true });
  await details.openBill(companionBill, 'HB 4243');
  await details.decisionButton('Later').click();
  await expect(details.decisionButton('Later')).toHaveAttribute('aria-pressed', 'true');
  await details.addTag('Renters', { create: false });

  // Tracked, filtered by the tag: one bill. Share → Create link → Share link: three taps.
  const tracked = new TrackedPage(owner);
  await tracked.open();
  await tracked.tag().selectOption({ label: 'Renters' });
  await tracked.expectCount('1 bill');
  await owner
    .locator('.tracked-toolbar')
    .getByRole('button', { name: 'Share', exact: true })
    .click();
  const sheet = modalNamed(owner, 'Share this list');
  await expectPainted(sheet.getByText('Share 1 bill as a public link', { exact: true }));
  await expect(sheet.getByText(/^“Tracked · Renters”: the bills this list shows/)).toBeVisible();
  expect(await seriousViolations(owner)).toEqual([]);
  await sheet.getByRole('button', { name: 'Create link', exact: true }).click();
  const field = sheet.getByLabel('Link', { exact: true });
  await expect(field).toBeVisible(SLOW);
  const link = await field.inputValue();
  expect(link).toMatch(/\/public-link\/[0-9a-f-]+#k=[A-Za-z0-9_-]{43}$/);
  await sheet.getByRole('button', { name: 'Share link', exact: true }).click();
  await expect
    .poll(() => owner.evaluate(() => (window as { __shared?: ShareData }).__shared))
    .toEqual({ title: 'Tracked · Renters', url: link });
  // Where there is no share sheet, "Copy link" is the way, and it says so.
  await sheet.getByRole('button', { name: 'Copy link', exact: true }).click();
  await expectPainted(
    owner.locator('ion-toast').getByRole('status').filter({ hasText: 'Link copied.' }),
  );
  expect(await owner.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // What the server hands anyone, decrypted with the fragment's key: the list's bill only.
  const [base, fragment] = link.split('#');
  const linkId = base?.split('/').pop() ?? '';
  const stored = await owner.request.get(`/api/links/${linkId}/public`);
  const { ciphertext } = (await stored.json()) as { ciphertext: string };
  const webCrypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;
  const payload = await openLinkContents(webCrypto, ciphertext, fragment?.slice(2) ?? null, linkId);
  expect(payload).toMatchObject({ kind: 'list', name: 'Tracked · Renters' });
  expect(payload.contents.bills.map((bill) => bill.id)).toEqual([tenantBill]);
  expect(JSON.stringify(payload)).not.toContain(companionBill);

  // A reader, never signed in, in a browser of their own: the list, without the app's counters.
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await viewer.goto(link);
  await expect(
    viewer.getByRole('heading', { level: 1, name: 'Tracked · Renters', exact: true }),
  ).toBeVisible(SLOW);
  await expect(
    viewer.getByText('This list holds 1 tracked bill, 1 tag.', { exact: true }),
  ).toBeVisible();
  const bills = viewer.getByRole('list', { name: 'Bills' });
  await expect(
    bills.getByRole('listitem').filter({ has: viewer.getByRole('heading') }),
  ).toHaveCount(1);
  const tenant = bills.getByRole('listitem').filter({
    has: viewer.getByRole('heading', { name: /^HB 4242:/ }),
  });
  await expectPainted(tenant.getByRole('list', { name: 'Tags of HB 4242' }));
  await expect(viewer.getByRole('heading', { name: /^HB 4243:/ })).toHaveCount(0);
  await expect(viewer.getByText('Datasets', { exact: true })).toHaveCount(0);
  await expect(viewer.getByText('Triage decisions', { exact: true })).toHaveCount(0);
  await expect(viewer.getByText(/^Backed up/)).toHaveCount(0);
  expect(await viewer.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await seriousViolations(viewer)).toEqual([]);
  await screenshotsAtBothSizes(viewer, 'shared-list-reader');
  await viewerContext.close();

  // The owner finds it under Backups, as the backup "Tracked · Renters", where it can be revoked.
  await sheet.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(sheet).toBeHidden();
  const backups = new BackupsPage(owner);
  await backups.open();
  await expect(backups.backup('Tracked · Renters')).toBeVisible(SLOW);
  await backups.share('Tracked · Renters');
  await expectPainted(owner.getByText('Holds 1 tracked bill, 1 tag', { exact: true }));
});
