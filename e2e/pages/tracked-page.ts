import { expect, type Locator, type Page } from '@playwright/test';

// The Tracked tab, found the way a person finds it: the search field, the filters by their
// labels, rows of the list by the bill identifier they show.

export class TrackedPage {
  constructor(private readonly page: Page) {}

  readonly search = () => this.page.getByLabel('Search', { exact: true });
  readonly allSwitch = () =>
    this.page.getByRole('switch', { name: 'Show all bills, not only tracked ones' });
  readonly status = () => this.page.getByLabel('Status', { exact: true });
  readonly tag = () => this.page.getByLabel('Tag', { exact: true });
  readonly sort = () => this.page.getByLabel('Sort by', { exact: true });
  readonly list = () => this.page.getByRole('list', { name: 'Bills', exact: true });
  readonly count = () => this.page.locator('.tracked-count');
  /** "Notes on removed bills": the user's work on bills no longer on this device. */
  readonly removedNotes = () =>
    this.page.getByRole('list', { name: 'Notes on removed bills', exact: true });
  removedNote(identifier: string): Locator {
    return this.removedNotes()
      .getByRole('listitem')
      .filter({ has: this.page.getByRole('link', { name: new RegExp(`^${identifier}\\b`) }) });
  }

  async open(search = ''): Promise<void> {
    await this.page.goto(`/tabs/tracked${search}`);
    await expect(this.page.getByRole('heading', { level: 1, name: 'Tracked' })).toBeVisible({
      timeout: 15_000,
    });
  }

  /** The row of a bill, by its identifier as the row shows it. */
  row(identifier: string): Locator {
    return this.list()
      .getByRole('listitem')
      .filter({ has: this.page.getByText(identifier, { exact: true }) });
  }

  /** The identifiers of the rows in the DOM (the virtualised list holds only those near view). */
  async identifiers(): Promise<string[]> {
    return this.list().locator('.tracked-row-identifier').allTextContents();
  }

  async expectCount(text: string): Promise<void> {
    await expect(this.count()).toHaveText(new RegExp(`^${text}`), { timeout: 30_000 });
  }

  async showAll(): Promise<void> {
    await this.allSwitch().click();
    await expect(this.allSwitch()).toBeChecked();
  }

  async typeSearch(text: string): Promise<void> {
    await this.search().fill(text);
  }

  async startSelecting(): Promise<void> {
    await this.page.getByRole('button', { name: 'Select', exact: true }).click();
  }

  checkbox(identifier: string): Locator {
    return this.page.getByRole('checkbox', { name: identifier, exact: true });
  }

  async tagSelectedWithNewTag(name: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Tag selected' }).click();
    // The picker's dialog is named for the count; its buttons are slotted into it from outside
    // Ionic's shadow root, so they are found on the page.
    await expect(this.page.getByRole('dialog', { name: /^Tag \d+ bills?$/ })).toBeVisible();
    await this.page.getByRole('button', { name: 'New tag', exact: true }).click();
    const field = this.page.getByRole('textbox', { name: 'Tag name', exact: true });
    await field.fill(name);
    await this.page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(field).toBeHidden();
  }
}
