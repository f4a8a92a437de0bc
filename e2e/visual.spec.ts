import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { sampleBillId, sampleFile } from './pages/annotation-page.ts';
import { AddDatasetPage, JobsPage } from './pages/dataset-pages.ts';
import { DeckPage } from './pages/deck-page.ts';
import { FullBackupsPage } from './pages/full-backup-pages.ts';
import { goodPassword, LoginPage, uniqueEmail } from './pages/login-page.ts';
import { expectScreenPainted } from './pages/painted.ts';

// Visual baselines: a screenshot of every route of the spec's table (§2), signed out for the
// open ones and signed in with a small dataset for the others, at a phone's size and a laptop's,
// compared with a small tolerance. A screen that goes blank, loses its layout or overlaps fails
// here. What changes from run to run (the account's address, dates, times, durations, sizes,
// spinners) is masked. One page per viewport visits every route: the device's data lives in
// IndexedDB, which a stored session would not carry to another page.
//
// A deliberate change is accepted with: npx playwright test e2e/visual.spec.ts --update-snapshots

const ACCEPT_COMMAND = 'npx playwright test e2e/visual.spec.ts --update-snapshots';

/** Each screen is opened at the phone's size, then seen again at the laptop's. */
const viewports = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1280, height: 800 },
] as const;

function sizeOf(viewport: (typeof viewports)[number]): { width: number; height: number } {
  return { width: viewport.width, height: viewport.height };
}

/** The dataset every signed-in screen shows: three bills for the deck and one with a text. */
const datasetName = 'Visual sample';
const datasetFiles = [sampleFile('deck-small.csv'), sampleFile('annotation-bill.csv')];

/** Today as the screens write it (en-US, UTC, see test.use below). */
function todayPatterns(): RegExp[] {
  const now = new Date();
  const day = (options: Intl.DateTimeFormatOptions) =>
    now.toLocaleDateString('en-US', { timeZone: 'UTC', ...options });
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [
    day({ dateStyle: 'medium' }),
    day({ dateStyle: 'long' }),
    day({ dateStyle: 'short' }),
    now.toISOString().slice(0, 10),
  ].map((text) => new RegExp(escape(text)));
}

/** Everything on the screen that differs between two runs of the same steps. */
function unstable(page: Page, email: string | null): Locator[] {
  const masks = [
    page.getByText(/\b\d{1,2}:\d{2}\b/),
    page.getByText(/\b\d+(\.\d+)? ?(ms|s)\b/),
    // Generated ids (jobs, datasets, backups).
    page.getByText(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/),
    ...todayPatterns().map((pattern) => page.getByText(pattern)),
    page.locator('time'),
    page.locator('dt:text-is("Duration") + dd'),
    page.locator('dt:text-is("Size") + dd'),
    page.locator('ion-spinner'),
    page.locator('ion-progress-bar[type="indeterminate"]'),
  ];
  if (email !== null) masks.push(page.getByText(email));
  return masks;
}

/**
 * Gives the text that differs from run to run one fixed form before a screenshot. A mask hides
 * such text but not its length, and a longer one wraps and moves what follows it: a random id
 * that happens to be wider takes two lines, "took 1 min 12 s" pushes a trace entry's heading
 * onto a second line. The stand-ins still match the masks in `unstable`.
 */
async function steadyText(page: Page): Promise<void> {
  await page.evaluate(() => {
    const standIns: [RegExp, string][] = [
      [
        /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
        '00000000-0000-0000-0000-000000000000',
      ],
      [/\b\d{1,2}:\d{2}(?::\d{2})?\b/g, '12:00:00'],
      [/\b(?:\d+ min )?\d+(?:\.\d+)? ?(?:ms|s)\b/g, '1.0 s'],
    ];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const before = node.nodeValue ?? '';
      const after = standIns.reduce(
        (text, [pattern, standIn]) => text.replace(pattern, standIn),
        before,
      );
      if (after !== before) node.nodeValue = after;
    }
  });
}

/** What a screen shows while it reads or waits: a screenshot waits until none is left. */
function stillLoading(page: Page): Locator {
  return page.getByText(/^(Loading|Opening)\b[^]*…$|Authenticating/).filter({ visible: true });
}

interface SnapOptions {
  /** What shows the screen is there, instead of its level-1 heading. */
  readonly ready?: (page: Page) => Locator;
  /** Steps after the screen is painted and before the screenshot. */
  readonly prepare?: (page: Page) => Promise<void>;
  /** What else this screen shows that differs from run to run. */
  readonly mask?: (page: Page) => Locator[];
}

/**
 * Opens `path` at the phone's size, waits until its screen is painted (its level-1 heading, or
 * `ready`) and has finished loading, and compares it with the baseline `phone-<name>`; then the
 * same screen at the laptop's size with `laptop-<name>`. Soft: one run reports every screen that
 * changed.
 */
async function snap(
  page: Page,
  name: string,
  path: string,
  email: string | null,
  options: SnapOptions = {},
): Promise<void> {
  await test.step(`${name}: ${path}`, async () => {
    await page.setViewportSize(sizeOf(viewports[0]));
    await page.goto(path);
    await expectScreenPainted(page, options.ready?.(page));
    await options.prepare?.(page);
    for (const viewport of viewports) {
      await page.setViewportSize(sizeOf(viewport));
      await expectScreenPainted(page, options.ready?.(page));
      // Ionic's page transition, the reads and the toasts of the screen before are over.
      await expect(page.locator('.ion-page-invisible')).toHaveCount(0);
      await expect(stillLoading(page)).toHaveCount(0, { timeout: 15_000 });
      await expect(page.locator('ion-toast')).toHaveCount(0);
      await steadyText(page);
      await expect.soft(page).toHaveScreenshot(`${viewport.name}-${name}.png`, {
        animations: 'disabled',
        caret: 'hide',
        maxDiffPixelRatio: 0.015,
        mask: [...unstable(page, email), ...(options.mask?.(page) ?? [])],
        timeout: 15_000,
      });
    }
  });
}

/** The full-backup form's default name holds today's date. */
function fullBackupName(page: Page): Locator[] {
  return [
    page
      .getByRole('region', { name: 'New full backup' })
      .getByLabel('Name', { exact: true })
      .filter({ visible: true }),
  ];
}

/** Where a failed comparison left its images, and the one command that accepts them. */
function reportChangedScreens(testInfo: TestInfo): void {
  if (testInfo.status === testInfo.expectedStatus) return;
  console.log(
    [
      '',
      `Visual baselines: a screen differs from its baseline, has none yet, or is not painted.`,
      `  New and diff images: ${testInfo.outputDir} (*-actual.png, *-diff.png, *-expected.png)`,
      `  Baselines:           e2e/visual.spec.ts-snapshots/`,
      `  If the change is deliberate, accept it with: ${ACCEPT_COMMAND}`,
      '',
    ].join('\n'),
  );
}

// eslint-disable-next-line no-empty-pattern -- Playwright passes the fixtures first; none is needed.
test.afterEach(({}, testInfo) => {
  reportChangedScreens(testInfo);
});

test.describe('visual baselines at 390×844 and 1280×800', () => {
  test.use({ viewport: sizeOf(viewports[0]), locale: 'en-US', timezoneId: 'UTC' });

  test('open routes, signed out', async ({ page }) => {
    const at = (name: string, path: string, options?: SnapOptions) =>
      snap(page, name, path, null, options);
    await at('login', '/login', {
      ready: (page) => page.getByRole('button', { name: 'Sign in' }),
      // The form shows during the guard's 'Authenticating' wait, which starts after 500 ms:
      // let it start, so that the screenshot is of the form once the wait is over.
      prepare: async (page) => {
        await expect(page.getByText('Authenticating').filter({ visible: true }))
          .toBeVisible({ timeout: 3_000 })
          .catch(() => undefined);
      },
    });
    await at('return-from-login', '/return-from-login');
    await at('terms-of-service-web', '/terms-of-service/web');
    await at('public-link-without-key', '/public-link/abc123');
    await at('add-full-backup-signed-out', '/add-full-backup', { mask: fullBackupName });
    await at('full-backup-preview-unknown', '/full-backup-preview/fb-unknown');
    await at('not-found', '/no-such-page');
  });

  test('signed-in routes, with a small dataset', async ({ page }) => {
    // Generous for a machine shared with other work; about a minute on a quiet one.
    test.setTimeout(300_000);
    const email = uniqueEmail();
    const login = new LoginPage(page);
    await login.open('/add-dataset');
    await login.createAccount(email, goodPassword);
    await expect(page).toHaveURL('/add-dataset', { timeout: 15_000 });
    await new AddDatasetPage(page).add(datasetName, datasetFiles);
    await new JobsPage(page).expectStatus(datasetName, 'Done');

    // One bill tracked, so the Tracked tab has a list and charts.
    const deck = new DeckPage(page);
    await deck.open();
    // The most recent activity first: SB 3 passed the Senate last.
    await deck.expectCard('SB 3');
    await deck.button('Track').click();
    await deck.expectCard('AB 2');
    // The next card shows before the decision is stored; the full backup below must hold it.
    await expect.poll(async () => Object.values(await deck.storedDecisions())).toEqual(['track']);

    // Real ids where they are cheap: the dataset and a full backup made here.
    await page.goto('/tabs/datasets');
    const datasetLink = page
      .getByRole('link', { name: datasetName, exact: true })
      .filter({ visible: true });
    const datasetPath = await datasetLink.getAttribute('href');
    expect(datasetPath).toMatch(/^\/add-dataset\/./);
    const fullBackups = new FullBackupsPage(page);
    await fullBackups.open();
    await fullBackups.create('Visual full backup');
    await fullBackups.backup('Visual full backup').getByRole('button', { name: 'Restore' }).click();
    await expect(page).toHaveURL(/\/full-backup-preview\/./);
    const fullBackupPath = new URL(page.url()).pathname;
    const fullBackupId = fullBackupPath.split('/').pop() ?? '';

    const at = (name: string, path: string, options?: SnapOptions) =>
      snap(page, name, path, email, options);
    await at('tabs-bills', '/tabs/bills');
    await at('tabs-tracked', '/tabs/tracked');
    await at('tabs-datasets', '/tabs/datasets');
    await at('tabs-backups', '/tabs/backups');
    await at('tabs-more', '/tabs/more');
    await at('swipeable-bills', '/swipeable-bills');
    await at('bill-details', `/bill-details?id=${encodeURIComponent(sampleBillId)}`);
    await at('bill-tags', '/bill-tags');
    await at('annotation-new', `/annotation?bill=${encodeURIComponent(sampleBillId)}`);
    await at(
      'annotation-unknown',
      `/annotation?bill=${encodeURIComponent(sampleBillId)}&id=a-unknown`,
    );
    await at('terms-of-service', '/terms-of-service');
    await at('add-dataset', '/add-dataset');
    await at('add-dataset-id', datasetPath ?? '');
    await at('datasets', '/datasets');
    // The full backup's job counts the trace entries it packed, which sync keeps adding.
    await at('jobs', '/jobs', {
      mask: (page) => [
        page
          .getByRole('listitem')
          .filter({ hasText: 'Full backup:' })
          .locator('dt:text-is("Read") + dd, dt:text-is("Written") + dd'),
      ],
    });
    await at('restore', '/restore');
    await at('add-backup', '/add-backup');
    await at('add-backup-unknown', '/add-backup/b-unknown');
    await at('export', '/export');
    await at('import', '/import');
    await at('backups', '/backups');
    // Sync's runs come and go; the jobs' entries are the same every time.
    await at('trace', '/trace', {
      prepare: async (page) => {
        await page.getByLabel('Kind', { exact: true }).selectOption('job');
        await expect(page.getByText(/^2 entries\.$/)).toBeVisible();
      },
      // The full backup packed the trace entries, whose count sync keeps raising.
      mask: (page) => [
        page
          .getByRole('listitem')
          .filter({ hasText: 'full-backup' })
          .locator('dt:text-is("read") + dd, dt:text-is("written") + dd'),
      ],
    });
    // Without a cloud password the backup preview has no heading of its own, only the notice.
    await at('backup-preview-unknown', '/backup-preview/b-unknown', {
      ready: (page) => page.getByText(/this device does not have it yet/).filter({ visible: true }),
    });
    await at('backup-link-unknown', '/backup-link/b-unknown');
    await at('add-full-backup', '/add-full-backup', { mask: fullBackupName });
    await at('add-full-backup-id', `/add-full-backup/${fullBackupId}`);
    await at('full-backup-preview', fullBackupPath, {
      mask: (page) => [page.getByRole('listitem').filter({ hasText: /trace entr/ })],
    });
  });
});
