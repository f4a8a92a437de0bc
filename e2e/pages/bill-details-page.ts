import { seriousViolations } from './accessibility.ts';
import { expect, type Locator, type Page } from '@playwright/test';

// The bill-details screen and its tag picker, found by headings, labels and button names.

export class BillDetailsPage {
  constructor(private readonly page: Page) {}

  async open(billId: string): Promise<void> {
    await this.page.goto(`/bill-details?id=${encodeURIComponent(billId)}`);
  }

  /** Opens a bill and waits for its identifier as the page heading. */
  async openBill(billId: string, identifier: string): Promise<void> {
    await this.open(billId);
    await expect(this.heading()).toHaveText(identifier, { timeout: 15_000 });
  }

  readonly heading = () => this.page.getByRole('heading', { level: 1 });

  section(name: string | RegExp): Locator {
    return this.page.getByRole('region', { name });
  }

  /** The actions, in whichever order they are shown: newest first unless "Oldest first" is on. */
  readonly timeline = () =>
    this.page.getByRole('list', { name: /^Actions, (newest|oldest) first$/ });
  readonly votes = () => this.page.getByRole('table');

  /** What the bill's facts say under a term ("Status", "Latest action"): the term's definition. */
  fact(term: string): Locator {
    return this.page
      .getByRole('term')
      .filter({ hasText: new RegExp(`^${term}$`) })
      .locator('xpath=following-sibling::dd[1]');
  }
  readonly tagsOnBill = () => this.page.getByRole('list', { name: 'Tags on this bill' });
  readonly addTagButton = () => this.page.getByRole('button', { name: 'Add tag', exact: true });
  // Ionic's dialog role sits in the modal's shadow root, which holds the content only through a
  // slot; the modal element itself is what contains the picker's buttons and fields.
  readonly picker = () => this.page.locator('ion-modal.show-modal');
  /** The toast that says what an action did: read out as a status, gone after about 4 s. */
  toast(text: string): Locator {
    return this.page.locator('ion-toast').getByRole('status').filter({ hasText: text });
  }

  position(label: 'Support' | 'Oppose' | 'Watch' | 'None'): Locator {
    return this.page.getByRole('radio', { name: label, exact: true });
  }

  /** The position's "Why" field. */
  readonly why = () => this.page.getByRole('textbox', { name: 'Why', exact: true });
  /** What the "Why" field says once its text is stored. */
  readonly reasonSaved = () =>
    this.section('Your position').getByRole('status').filter({ hasText: 'Reason saved.' });

  decisionButton(label: 'Track' | 'Dismiss' | 'Later'): Locator {
    return this.page
      .getByRole('group', { name: 'Change the decision' })
      .getByRole('button', { name: label, exact: true });
  }

  removeTagButton(name: string): Locator {
    return this.page.getByRole('button', { name: `Remove tag ${name}`, exact: true });
  }

  /** Adds a tag through the picker: an existing one by name, or a new one made in place. */
  async addTag(name: string, { create }: { create: boolean }): Promise<void> {
    await this.addTagButton().click();
    const dialog = this.picker();
    await expect(dialog).toBeVisible();
    if (create) {
      await dialog.getByRole('button', { name: 'New tag', exact: true }).click();
      await dialog.getByLabel('Tag name', { exact: true }).fill(name);
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    } else {
      await dialog.getByRole('button', { name, exact: true }).click();
    }
    // The tag is written, then the sheet slides away: seconds on a busy machine.
    await expect(dialog).toBeHidden({ timeout: 15_000 });
    await expect(this.tagsOnBill().getByText(name, { exact: true })).toBeVisible();
  }

  /** axe-core's serious and critical findings on the page as it is now. */
  async seriousAccessibilityViolations(): Promise<string[]> {
    return seriousViolations(this.page);
  }
}
