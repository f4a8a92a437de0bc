import { seriousViolations } from './accessibility.ts';
import { expect, type Locator, type Page } from '@playwright/test';

// The bill-tags screen: one list item per tag, each with its own buttons.

export class BillTagsPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/bill-tags');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Tags' })).toBeVisible({
      timeout: 15_000,
    });
  }

  readonly list = () => this.page.getByRole('list', { name: 'Tags' });
  /** The toast that says what an action did: read out as a status, gone after about 4 s. */
  toast(text: string): Locator {
    return this.page.locator('ion-toast').getByRole('status').filter({ hasText: text });
  }
  readonly nameField = () => this.page.getByLabel('Tag name', { exact: true });

  row(name: string): Locator {
    return this.list()
      .getByRole('listitem')
      .filter({ has: this.page.getByRole('heading', { level: 2, name, exact: true }) });
  }

  /**
   * Creates a tag and waits until its row is listed, as a person sees the save land. Leaving the
   * page before that (a `goto` right after Save) can abort the save's transaction: the tag was
   * then never made, which once looked like a sync bug (a reset that lost the tag).
   */
  async create(name: string): Promise<void> {
    await this.attemptCreate(name);
    await expect(this.row(name)).toBeVisible({ timeout: 15_000 });
  }

  /** Fills in and saves a new tag, without waiting for it (for a name that is refused). */
  async attemptCreate(name: string): Promise<void> {
    await this.page.getByRole('button', { name: 'New tag', exact: true }).click();
    await this.nameField().fill(name);
    await this.page.getByRole('button', { name: 'Save', exact: true }).click();
  }

  async rename(from: string, to: string): Promise<void> {
    const row = this.row(from);
    await row.getByRole('button', { name: 'Rename', exact: true }).click();
    await row.getByLabel('Tag name', { exact: true }).fill(to);
    await row.getByRole('button', { name: 'Save', exact: true }).click();
  }

  /** The current colour of a tag, as the row says it: "Colour: Purple" or "Colour: #123abc". */
  colourWord(name: string): Locator {
    return this.row(name).getByText(/^Colour: \S/);
  }

  async axeSeriousViolations(): Promise<string[]> {
    return seriousViolations(this.page);
  }
}
