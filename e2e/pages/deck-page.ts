import { seriousViolations } from './accessibility.ts';
import { expect, type Locator, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The swipeable deck (Bills tab), found by its region, headings, labels and button names.

const samplesRoot = join(dirname(fileURLToPath(import.meta.url)), '..', 'samples');

/** A hand-made Docket CSV sample of e2e/samples. */
export function deckSample(name: string): string {
  return join(samplesRoot, name);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class DeckPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/tabs/bills');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Bills' })).toBeVisible({
      timeout: 15_000,
    });
  }

  deck(): Locator {
    return this.page.getByRole('region', { name: 'Bill deck' });
  }

  /** The card on top of the deck. */
  card(): Locator {
    return this.deck().getByRole('article');
  }

  /** The card of the bill with this identifier, once it is on top. */
  async expectCard(identifier: string): Promise<void> {
    await expect(
      this.card().getByRole('heading', { level: 2, name: identifier, exact: true }),
    ).toBeVisible({ timeout: 30_000 });
  }

  button(name: 'Track' | 'Dismiss' | 'Later' | 'Undo'): Locator {
    return this.deck().getByRole('button', { name, exact: true });
  }

  /**
   * The deck's one polite live region: what the last decision or Undo did, the card now on top
   * and how many are left ("Tracked HB 1. Next: HB 2, Water Act. 4 bills left.").
   */
  announcement(): Locator {
    return this.page.locator('.deck-announcement[role="status"]');
  }

  /**
   * Decides the card on top and waits until the decision is stored: the next card shows at
   * once, and the deck says "Tracked HB 1. Next: …" only once the write is done and counted
   * (leaving the page before that loses it).
   */
  async decide(button: 'Track' | 'Dismiss' | 'Later', identifier: string): Promise<void> {
    await this.button(button).click();
    await expect(this.card().getByRole('heading', { level: 2, name: identifier })).toHaveCount(0, {
      timeout: 15_000,
    });
    const said = {
      Track: `Tracked ${identifier}`,
      Dismiss: `Dismissed ${identifier}`,
      Later: `Saved for later: ${identifier}`,
    }[button];
    await expect(this.announcement()).toHaveText(new RegExp(`^${escapeRegExp(said)}\\. `), {
      timeout: 15_000,
    });
  }

  count(): Locator {
    return this.page.getByText(/left in the deck/);
  }

  emptyHeading(name: string): Locator {
    return this.deck().getByRole('heading', { level: 2, name, exact: true });
  }

  /** Drags the top card with the mouse by (dx, dy), in small steps, and lets go. */
  async drag(dx: number, dy: number): Promise<void> {
    const box = await this.card().boundingBox();
    if (box === null) throw new Error('the card is not on screen');
    const x = box.x + box.width / 2;
    const y = box.y + Math.min(box.height / 2, 80);
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x + dx / 2, y + dy / 2, { steps: 8 });
    await this.page.mouse.move(x + dx, y + dy, { steps: 8 });
    await this.page.mouse.up();
  }

  async openFilter(): Promise<void> {
    const search = this.search();
    if (!(await search.isVisible())) await this.page.getByText('Filter', { exact: true }).click();
    await expect(search).toBeVisible();
  }

  search(): Locator {
    return this.page.getByLabel('Search the deck', { exact: true });
  }

  /** The decisions in the device's database, straight from IndexedDB. */
  async storedDecisions(): Promise<Record<string, string>> {
    return this.page.evaluate(
      () =>
        new Promise<Record<string, string>>((resolve, reject) => {
          const open = indexedDB.open(localStorage.getItem('docket.database') ?? 'docket');
          open.onerror = () => {
            reject(new Error(String(open.error)));
          };
          open.onsuccess = () => {
            const db = open.result;
            const request = db.transaction('decisions').objectStore('decisions').getAll();
            request.onerror = () => {
              reject(new Error(String(request.error)));
            };
            request.onsuccess = () => {
              const rows = request.result as { billId: string; decision: string }[];
              db.close();
              resolve(Object.fromEntries(rows.map((row) => [row.billId, row.decision])));
            };
          };
        }),
    );
  }

  /** Serious and critical axe-core violations on the page, as readable lines. */
  async seriousViolations(): Promise<string[]> {
    return seriousViolations(this.page);
  }
}
