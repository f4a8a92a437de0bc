import { expect, type Download, type Locator, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';

// The export, import and trace screens, found by their headings, labels and button names.

/** A download's bytes, once the browser has it. */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  return readFile(await download.path());
}

export class ExportPage {
  constructor(private readonly page: Page) {}

  /** `search` is the Tracked tab's query, as its link to the export passes it. */
  async open(search = ''): Promise<void> {
    await this.page.goto(`/export${search}`);
    await expect(this.page.getByRole('heading', { level: 1, name: 'Export' })).toBeVisible({
      timeout: 15_000,
    });
  }

  /** The toast that says what was done: read out as a status, gone after about 4 s. */
  readonly status = () => this.page.locator('ion-toast').getByRole('status');

  scope(
    label:
      'All bills' | 'Tracked bills' | 'Bills with a tag' | 'Bills in the Tracked list as filtered',
  ): Locator {
    return this.page.getByRole('radio', { name: label, exact: true });
  }

  /** Clicks an export button and returns the file the browser downloads. */
  async export(
    button: 'Export CSV' | 'Export report' | 'Export JSON' | 'Export annotations',
  ): Promise<{ name: string; bytes: Buffer }> {
    const downloading = this.page.waitForEvent('download', { timeout: 30_000 });
    await this.page.getByRole('button', { name: button, exact: true }).click();
    const download = await downloading;
    await expect(this.status()).toContainText(`to ${download.suggestedFilename()}`);
    return { name: download.suggestedFilename(), bytes: await downloadedBytes(download) };
  }
}

export class ImportPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/import');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Import' })).toBeVisible({
      timeout: 15_000,
    });
  }

  readonly file = () => this.page.getByLabel('File', { exact: true });
  readonly preview = () => this.page.getByRole('region', { name: 'What this import does' });
  readonly importButton = () => this.preview().getByRole('button', { name: 'Import', exact: true });
  readonly refusal = () => this.page.getByRole('alert');
  readonly status = () => this.page.getByRole('status').filter({ hasText: /\S/ });

  async pick(name: string, bytes: Buffer, mimeType = 'application/json'): Promise<void> {
    await this.file().setInputFiles({ name, mimeType, buffer: bytes });
  }
}

export class TracePage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/trace');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Trace' })).toBeVisible({
      timeout: 15_000,
    });
  }

  readonly kind = () => this.page.getByLabel('Kind', { exact: true });
  readonly time = () => this.page.getByLabel('Time', { exact: true });
  readonly list = () => this.page.getByRole('list', { name: 'Trace entries, newest first' });
  readonly entries = () => this.list().getByRole('listitem');
  /** The toast that says what was done: read out as a status, gone after about 4 s. */
  readonly status = () => this.page.locator('ion-toast').getByRole('status');

  /** The entries' kinds, newest first, as their headings show them. */
  async kinds(): Promise<string[]> {
    return this.list().locator('.trace-entry h2 > span:first-child').allTextContents();
  }

  async exportTrace(): Promise<Buffer> {
    const downloading = this.page.waitForEvent('download', { timeout: 30_000 });
    await this.page.getByRole('button', { name: 'Export trace', exact: true }).click();
    return downloadedBytes(await downloading);
  }
}
