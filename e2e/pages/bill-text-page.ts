import { expect, type Locator, type Page } from '@playwright/test';

// Bill details' text versions: "Get text", a version's text with its headings, and "Compare
// versions", found by headings, labels and button names.

export class BillTextPage {
  constructor(private readonly page: Page) {}

  readonly versions = () => this.page.getByRole('list', { name: 'Text versions' });

  /** The version whose heading starts with `type` ("Introduced (Jan 9, 2023)"). */
  version(type: string): Locator {
    return this.versions()
      .getByRole('listitem')
      .filter({ has: this.page.getByRole('heading', { level: 3, name: new RegExp(`^${type}`) }) });
  }

  getText(type: string): Locator {
    return this.version(type).getByRole('button', { name: `Get text: ${type}` });
  }

  /** The version's text, once "Show text" opened it: a region named by the version's heading. */
  text(type: string): Locator {
    return this.version(type).getByRole('region', { name: new RegExp(`^${type}`) });
  }

  async getAndShow(type: string): Promise<Locator> {
    await this.getText(type).click();
    const show = this.version(type).getByRole('button', { name: 'Show text' });
    await expect(show).toBeVisible({ timeout: 30_000 });
    await show.click();
    return this.text(type);
  }

  readonly compareButton = () => this.page.getByRole('button', { name: 'Compare versions' });
  readonly comparison = () => this.page.getByRole('region', { name: /^Changes from / });
}
