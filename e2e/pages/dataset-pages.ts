import { expect, type Locator, type Page } from '@playwright/test';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signUpAt } from './login-page.ts';

// The datasets, add-dataset and jobs screens, found by their labels, headings and button names.

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The real files beside the repository (`../shared/fixtures`), or null where they are absent. */
export const fixturesRoot: string | null = (() => {
  const path = join(repoRoot, '..', 'shared', 'fixtures');
  return existsSync(path) ? path : null;
})();

/** Every file under a folder of the fixtures, in a stable order. */
export function fixtureFiles(relative: string): string[] {
  if (fixturesRoot === null) throw new Error('../shared/fixtures is absent');
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((entry) => {
        const path = join(dir, entry.name);
        return entry.isDirectory() ? walk(path) : [path];
      });
  return walk(join(fixturesRoot, relative));
}

export class AddDatasetPage {
  constructor(private readonly page: Page) {}

  readonly name = () => this.page.getByLabel('Name', { exact: true });
  readonly files = () => this.page.getByLabel('Files', { exact: true });
  readonly folder = () => this.page.getByLabel('Folder', { exact: true });
  readonly url = () => this.page.getByLabel('URL', { exact: true });
  readonly importButton = () => this.page.getByRole('button', { name: 'Import', exact: true });
  /** An API dataset's "Session": the source's own list, a select (the overrides' "Session" is a
   *  text field, so the role tells them apart). */
  readonly sessionList = () => this.page.getByRole('combobox', { name: 'Session', exact: true });
  /** The question asked before unsaved changes are left, by a link or by Back or Forward. */
  readonly leaveWarning = () =>
    this.page.getByRole('alertdialog', { name: 'Leave without saving?' });

  async waitForForm(): Promise<void> {
    await expect(this.importButton()).toBeVisible({ timeout: 15_000 });
  }

  /** Import as it stands; the dataset is stored before the jobs screen opens, which on a busy
   *  machine takes longer than an expectation's usual wait. */
  async importAndOpenJobs(): Promise<void> {
    await this.importButton().click();
    await expect(this.page).toHaveURL('/jobs', { timeout: 30_000 });
  }

  /** The names the session list offers, in its order, once the source's list is in. */
  async sessionNames(): Promise<string[]> {
    await expect(this.sessionList()).toBeVisible({ timeout: 15_000 });
    return (await this.sessionList().locator('option').allTextContents()).map((text) =>
      text.trim(),
    );
  }

  /** Picks a session from the source's list by its name, as a person reads it. */
  async pickSession(name: string): Promise<void> {
    await expect(this.sessionList()).toBeVisible({ timeout: 15_000 });
    await this.sessionList().selectOption({ label: name });
    await expect(this.sessionList().locator('option:checked')).toHaveText(name);
  }

  async add(name: string, files: readonly string[]): Promise<void> {
    await this.waitForForm();
    await this.name().fill(name);
    await this.files().setInputFiles([...files]);
    await this.importButton().click();
    // The files are read, hashed and stored before the jobs screen opens.
    await expect(this.page).toHaveURL('/jobs', { timeout: 30_000 });
  }
}

/**
 * A new account with one dataset imported: signs up into the add-dataset form, imports `files`
 * as `name` and waits for the import to be done. Returns the account's address.
 */
export async function signUpWithDataset(
  page: Page,
  name: string,
  files: readonly string[],
): Promise<string> {
  const email = await signUpAt(page, '/add-dataset');
  await new AddDatasetPage(page).add(name, files);
  await new JobsPage(page).expectStatus(name, 'Done');
  return email;
}

export class JobsPage {
  constructor(private readonly page: Page) {}

  /** The newest job of the named dataset. */
  job(datasetName: string): Locator {
    return this.page
      .getByRole('listitem')
      .filter({ has: this.page.getByRole('heading', { name: `Import of ${datasetName}` }) })
      .first();
  }

  async expectStatus(datasetName: string, status: string, timeout = 60_000): Promise<void> {
    await expect(this.job(datasetName).getByText(status, { exact: true })).toBeVisible({
      timeout,
    });
  }
}

export class DatasetsPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/datasets');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Datasets' })).toBeVisible({
      timeout: 15_000,
    });
  }

  dataset(name: string): Locator {
    return this.page
      .getByRole('listitem')
      .filter({ has: this.page.getByRole('heading', { name, exact: true }) });
  }
}

/** The ids and change hashes of every bill in the device's database, straight from IndexedDB. */
export async function storedBills(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open(localStorage.getItem('docket.database') ?? 'docket');
        open.onerror = () => {
          reject(new Error(String(open.error)));
        };
        open.onsuccess = () => {
          const db = open.result;
          const request = db.transaction('bills').objectStore('bills').getAll();
          request.onerror = () => {
            reject(new Error(String(request.error)));
          };
          request.onsuccess = () => {
            const rows = request.result as { id: string; changeHash: string }[];
            db.close();
            resolve(rows.map((row) => `${row.id} ${row.changeHash}`));
          };
        };
      }),
  );
}

/**
 * Makes imports wait their turn until the page unloads. Imports run one at a time under the Web
 * Lock `docket-imports`, and the page takes it: a job added now stays queued, whatever the
 * machine's speed (a quick machine finished a whole import before a test could reload during it).
 */
export async function holdImportsUntilUnload(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((held) => {
        void navigator.locks.request(
          'docket-imports',
          () =>
            new Promise<void>(() => {
              held();
            }),
        );
      }),
  );
}
