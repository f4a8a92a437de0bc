import { seriousViolations } from './accessibility.ts';
import { expect, type Download, type Locator, type Page } from '@playwright/test';

// The full-backup screens: /add-full-backup (new backup, the device's list, restore from a
// file) and the preview of a stored one, found by headings, labels and button names.

// Argon2id with the cloud password's parameters runs for each passphrase; on a loaded machine
// that and packing a database take a while.
const SLOW = 90_000;

export class FullBackupsPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/add-full-backup');
    await expect(
      this.page.getByRole('heading', { level: 1, name: 'Full backups', exact: true }),
    ).toBeVisible({ timeout: 15_000 });
  }

  readonly newSection = () => this.page.getByRole('region', { name: 'New full backup' });
  readonly fileSection = () => this.page.getByRole('region', { name: 'Restore from a file' });
  readonly list = () => this.page.getByRole('list', { name: 'Full backups on this device' });

  backup(name: string): Locator {
    return this.list()
      .getByRole('listitem')
      .filter({ has: this.page.getByRole('heading', { name, exact: true }) });
  }

  /** Fills the form and waits until the job says the backup was made. */
  async create(name: string, passphrase = ''): Promise<void> {
    const form = this.newSection();
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Passphrase', { exact: true }).fill(passphrase);
    await form.getByLabel('Confirm passphrase', { exact: true }).fill(passphrase);
    await form.getByRole('button', { name: 'Create full backup', exact: true }).click();
    await expect(form.getByText(`Created the full backup "${name}"`)).toBeVisible({
      timeout: SLOW,
    });
    await expect(this.backup(name)).toBeVisible();
  }

  async download(name: string): Promise<Download> {
    const downloading = this.page.waitForEvent('download');
    await this.backup(name).getByRole('button', { name: 'Download', exact: true }).click();
    return downloading;
  }

  async pickFile(path: string): Promise<void> {
    await this.fileSection().getByLabel('File', { exact: true }).setInputFiles(path);
  }
}

/** The preview and restore panel, within the region (a section or the page) that holds it. */
export class FullBackupPreviewPanel {
  constructor(
    private readonly page: Page,
    private readonly scope: Locator,
  ) {}

  // Ionic keeps the pages under this one in the document; only the shown one counts.
  readonly passphrase = () =>
    this.scope.getByLabel('Passphrase', { exact: true }).filter({ visible: true });
  readonly contents = () => this.scope.getByRole('list', { name: 'Contents' });
  readonly alert = () => this.scope.getByRole('alert');

  async open(passphrase: string): Promise<void> {
    await this.passphrase().fill(passphrase);
    await this.scope.getByRole('button', { name: 'Open', exact: true }).click();
  }

  async expectContents(): Promise<void> {
    await expect(
      this.scope.getByRole('heading', { name: 'What this full backup holds' }),
    ).toBeVisible({ timeout: SLOW });
  }

  /** Merge the backup into the device's data and wait for the job to finish. */
  async merge(): Promise<void> {
    await this.scope.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(this.scope.getByText(/Merged\./)).toBeVisible({ timeout: SLOW });
  }

  /** Replace the device's data with the backup, confirm, and wait for the job to finish. */
  async restore(): Promise<void> {
    await this.scope.getByRole('button', { name: 'Replace', exact: true }).click();
    await expect(
      this.scope.getByText('Replace the data on this device with this full backup?'),
    ).toBeVisible();
    await this.scope.getByRole('button', { name: 'Replace my data', exact: true }).click();
    await expect(this.scope.getByText(/Restored\./)).toBeVisible({ timeout: SLOW });
  }

  async seriousAccessibilityViolations(): Promise<string[]> {
    return seriousViolations(this.page);
  }
}
