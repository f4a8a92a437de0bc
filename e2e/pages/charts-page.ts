import { seriousViolations } from './accessibility.ts';
import { expect, type Locator, type Page } from '@playwright/test';

// The Tracked tab's charts, found as a person (or a screen reader) finds them: the "Charts"
// region, each chart's list of bars by its title, and each bar by its name ("Vetoed: 1 bill").

export class ChartsPage {
  constructor(private readonly page: Page) {}

  /** Opens Tracked and unfolds its charts (folded at first, so the list comes first). */
  async open(): Promise<void> {
    await this.page.goto('/tabs/tracked');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Tracked' })).toBeVisible({
      timeout: 15_000,
    });
    await this.unfold();
  }

  async unfold(): Promise<void> {
    await expect(this.region()).toBeHidden();
    // The disclosure's summary; the region's heading of the same name is for screen readers.
    await this.page.getByText('Charts', { exact: true }).filter({ visible: true }).click();
    await expect(this.region()).toBeVisible();
  }

  region(): Locator {
    return this.page.getByRole('region', { name: 'Charts' });
  }

  statusChart(): Locator {
    return this.region().getByRole('list', { name: 'Tracked bills by status' });
  }

  weekChart(): Locator {
    return this.region().getByRole('list', { name: 'Tracked bills with an action, per week' });
  }

  /** The bars that lead somewhere, by their names, in the order they are shown. */
  async barNames(chart: Locator): Promise<string[]> {
    return chart
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.getAttribute('aria-label') ?? ''));
  }

  /** Serious and critical axe-core findings inside the charts region. */
  async seriousViolations(): Promise<string[]> {
    return seriousViolations(this.page, '.ion-page:not(.ion-page-hidden) section.charts-panel');
  }
}
