import type { ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import type { CDPSession, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { AddDatasetPage, fixturesRoot, JobsPage } from './pages/dataset-pages.ts';
import { DeckPage } from './pages/deck-page.ts';
import { signUpAt } from './pages/login-page.ts';
import { workerSourcePort } from './source-port.ts';
import { SourceSimulatorServer, type SimulatedRequest } from './source-simulator.ts';

// The refresh through periodic background sync, in Chromium: with "Refresh datasets
// automatically" on and the browser allowing periodic background sync, the page registers the
// sync; DevTools then fires it (as the browser would, hours later) while no page of the app is
// open. The service worker refreshes the dataset through the Docket server's relay, alerts, and
// the app, opened afterwards, lists the changed tracked bills under "What changed".

test.skip(fixturesRoot === null, '../shared/fixtures is absent');

const BILLS = ['HB1', 'HB2', 'HB3'] as const;
const NEW_ACTION = 'Referred to the Committee on Finance';
const TAG = 'docket-refresh';

interface LegiScanBill {
  bill: { history: { date: string; action: string; chamber: string; chamber_id: number }[] };
}

/** The LegiScan dataset ZIP layout (STATE/SESSION/bill/<file>.json) of real bill files. */
function snapshot(edit: (bill: LegiScanBill) => void): Uint8Array {
  if (fixturesRoot === null) throw new Error('../shared/fixtures is absent');
  const entries: Record<string, Uint8Array> = {};
  for (const name of BILLS) {
    const bill = JSON.parse(
      readFileSync(join(fixturesRoot, 'legiscan', 'bill', `${name}.json`), 'utf8'),
    ) as LegiScanBill;
    edit(bill);
    entries[`AK/2011-2012_27th_Legislature/bill/${name}.json`] = strToU8(JSON.stringify(bill));
  }
  return zipSync(entries);
}

interface RecordedRequest {
  status: number;
  relayed: boolean;
}

/** A file host that sends no CORS headers (so only the relay can read it), with ETag and 304. */
class FileHost extends SourceSimulatorServer<RecordedRequest> {
  private body: Uint8Array = new Uint8Array();
  private etag = '';

  serve(body: Uint8Array): void {
    this.body = body;
    this.etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
  }

  protected answer(request: SimulatedRequest, response: ServerResponse): RecordedRequest {
    const status = request.headers['if-none-match'] === this.etag ? 304 : 200;
    response.setHeader('etag', this.etag);
    response.statusCode = status;
    if (status === 200) response.setHeader('content-type', 'application/zip');
    response.end(status === 200 ? Buffer.from(this.body) : undefined);
    return { status, relayed: request.relayed };
  }
}

/** The id DevTools gives the app's service worker registration. */
async function registrationId(cdp: CDPSession, scope: string): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const match = registrations.find(
        (registration) => registration.scopeURL === scope && !registration.isDeleted,
      );
      if (match !== undefined) resolve(match.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
}

/** The notifications the service worker has shown and the user has not closed. */
function shownNotifications(page: Page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map(({ title, body, tag }) => ({
      title,
      body,
      tag,
    }));
  });
}

/**
 * Allows periodic background sync, as Chromium does for an installed app the user engages with:
 * on a browser session, for this test's browser context (a page's session cannot). The session is
 * returned, to be kept open: detaching it drops the permission.
 */
async function allowPeriodicSync(page: Page, origin: string): Promise<CDPSession> {
  const pageSession = await page.context().newCDPSession(page);
  const { targetInfo } = await pageSession.send('Target.getTargetInfo');
  await pageSession.detach();
  const browser = page.context().browser();
  if (browser === null) throw new Error('The test runs without a browser');
  const session = await browser.newBrowserCDPSession();
  await session.send('Browser.setPermission', {
    permission: { name: 'periodic-background-sync' },
    setting: 'granted',
    origin,
    ...(targetInfo.browserContextId === undefined
      ? {}
      : { browserContextId: targetInfo.browserContextId }),
  });
  return session;
}

test('the browser’s periodic background sync refreshes with no page open, alerts, and What changed lists the tracked bills it changed', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const origin = baseURL ?? '';
  // The server allows this host and port (SOURCE_HOSTS, set in playwright.config.ts).
  const host = new FileHost();
  host.serve(snapshot(() => undefined));
  const url = `${await host.start(workerSourcePort())}/legiscan/AK_2011-2012.zip`;
  // The browser's own tries, which the missing CORS headers refuse, are not counted.
  const relayed = () => host.requests.filter((request) => request.relayed);
  try {
    await context.grantPermissions(['notifications'], { origin });
    // The page's clock is ours, so the 30 s wait before the service worker is registered can be
    // skipped over; time otherwise flows as usual.
    await page.clock.install();
    await signUpAt(page, '/tabs/more');

    // Settings say whether this browser refreshes in the background: not until it allows it.
    const note = page.locator('#setting-auto-refresh-note');
    // Chromium has the API but allows it only to an installed app: the note says how.
    await expect(note).toContainText('Refreshes only while Docket is open: installed as an app');
    const permissions = await allowPeriodicSync(page, origin);
    await page.reload();
    await expect(note).toContainText('Refreshes in the background too');
    const interval = page.getByLabel('Refresh datasets automatically');
    await interval.selectOption({ label: 'Every 6 hours' });
    await expect(interval).toHaveValue('6');
    const alerts = page.getByRole('switch', { name: /Alert me when followed bills change/ });
    await alerts.click();
    await expect(alerts).toBeChecked();

    await page.goto('/add-dataset');
    const form = new AddDatasetPage(page);
    await form.waitForForm();
    await form.name().fill('Alaska in the background');
    await form.url().fill(url);
    await form.importAndOpenJobs();
    await new JobsPage(page).expectStatus('Alaska in the background', 'Done');
    expect(relayed()).toEqual([{ status: 200, relayed: true }]);

    // Track the first two bills of the deck; the third is dismissed.
    const deck = new DeckPage(page);
    await deck.open();
    const tracked: string[] = [];
    for (const decision of ['Track', 'Track', 'Dismiss'] as const) {
      const heading = deck.card().getByRole('heading', { level: 2 });
      await expect(heading).toBeVisible({ timeout: 30_000 });
      const identifier = (await heading.textContent())?.trim() ?? '';
      if (decision === 'Track') tracked.push(identifier);
      await deck.decide(decision, identifier);
    }
    expect(tracked).toHaveLength(2);

    // The service worker comes 30 s after the app is stable; then the page registers the sync
    // at the setting's interval.
    await page.clock.fastForward(31_000);
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const registration = (await navigator.serviceWorker
            .ready) as ServiceWorkerRegistration & {
            periodicSync: { getTags(): Promise<string[]> };
          };
          return registration.periodicSync.getTags();
        }),
      )
      .toEqual([TAG]);

    // No page of the app is open when the browser fires the sync: a blank page only, for DevTools.
    const blank = await context.newPage();
    await page.close();
    host.serve(
      snapshot((bill) => {
        bill.bill.history.push({
          date: '2011-05-02',
          action: NEW_ACTION,
          chamber: 'H',
          chamber_id: 1,
        });
      }),
    );
    const cdp = await context.newCDPSession(blank);
    const id = await registrationId(cdp, `${origin}/`);
    const before = relayed().length;
    await cdp.send('ServiceWorker.dispatchPeriodicSyncEvent', {
      origin,
      registrationId: id,
      tag: TAG,
    });
    // The service worker asked the source through the relay, and got the second snapshot.
    await expect
      .poll(() => relayed().slice(before), { timeout: 60_000 })
      .toEqual([{ status: 200, relayed: true }]);

    // The app, opened again, lists exactly the changed tracked bills under What changed.
    const app = await context.newPage();
    await app.goto('/tabs/tracked');
    const trackedTab = app.getByRole('tab', { name: /Tracked/ });
    await expect(trackedTab).toHaveAccessibleName(/^Tracked\s+2 bills with unseen changes$/, {
      timeout: 60_000,
    });
    await app
      .getByRole('group', { name: 'Show' })
      .getByRole('button', { name: 'What changed' })
      .click();
    const changed = app.getByRole('list', { name: 'Changed bills' });
    const cards = changed.locator(':scope > li');
    await expect(cards).toHaveCount(2);
    const headings = (await cards.getByRole('heading', { level: 3 }).allTextContents()).map(
      (text) => text.trim(),
    );
    expect(headings.sort()).toEqual([...tracked].sort());
    for (const card of await cards.all()) {
      await expect(card).toContainText(`New action: ${NEW_ACTION}`);
    }

    // The service worker's alert names the change, as the page's alerts do.
    const shown = await shownNotifications(app);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.title).toBe('2 followed bills changed');
    expect(shown[0]?.body).toContain(`New action: ${NEW_ACTION}`);

    // Turning the setting off drops the sync.
    await app.goto('/tabs/more');
    await app.getByLabel('Refresh datasets automatically').selectOption({ label: 'Off' });
    await expect
      .poll(() =>
        app.evaluate(async () => {
          const registration = (await navigator.serviceWorker
            .ready) as ServiceWorkerRegistration & {
            periodicSync: { getTags(): Promise<string[]> };
          };
          return registration.periodicSync.getTags();
        }),
      )
      .toEqual([]);
    await permissions.detach();
  } finally {
    await host.stop();
  }
});
