import { seriousViolations } from './accessibility.ts';
import { expect, type Locator, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The annotation screen, found by its headings, labels and button names.

const samplesRoot = join(dirname(fileURLToPath(import.meta.url)), '..', 'samples');

/** A hand-made Docket CSV beside the tests (e2e/samples). */
export function sampleFile(name: string): string {
  return join(samplesRoot, name);
}

/** HB 4242 of the samples: one text version, re-imported with text moved or removed. */
export const sampleBillId = 'us-wa/2023-2024-regular-session/hb-4242';
export const samplePassage = 'stay open until nine in the evening on weekdays';
/** HB 4243 of the samples: a title and a summary, no text. */
export const summaryOnlyBillId = 'us-wa/2023-2024-regular-session/hb-4243';

export function annotationUrl(billId: string, annotationId?: string): string {
  const bill = `/annotation?bill=${encodeURIComponent(billId)}`;
  return annotationId === undefined ? bill : `${bill}&id=${encodeURIComponent(annotationId)}`;
}

export class AnnotationPage {
  constructor(private readonly page: Page) {}

  readonly heading = () => this.page.getByRole('heading', { level: 1 });
  readonly text = () => this.page.getByRole('region', { name: /^Text of the bill/ });
  readonly note = () => this.page.getByLabel('Note', { exact: true });
  readonly save = () => this.page.getByRole('button', { name: 'Save', exact: true });
  readonly selectedPassage = () => this.page.locator('.picked-passage blockquote');
  readonly highlights = () => this.page.getByRole('list', { name: 'Highlights in this text' });
  readonly orphans = () => this.page.getByRole('list', { name: 'Orphaned annotations' });
  readonly colour = (name: string) => this.page.getByRole('radio', { name, exact: true });

  /** The marks in the text that show exactly this passage. */
  mark(passage: string): Locator {
    return this.text()
      .locator('mark')
      .filter({ hasText: new RegExp(`^${passage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
  }

  /** The toast that says what was done: read out as a status, gone after about 4 s. */
  status(message: string): Locator {
    return this.page.locator('ion-toast').getByRole('status').filter({ hasText: message });
  }

  async open(billId: string, annotationId?: string): Promise<void> {
    await this.page.goto(annotationUrl(billId, annotationId));
    await expect(this.heading()).toBeVisible({ timeout: 15_000 });
  }

  /**
   * Drags the mouse from the first character of the passage to its last, as a person would.
   * Where the characters are on screen comes from the page; the selection is made by the mouse.
   */
  async selectWithMouse(passage: string): Promise<void> {
    const region = this.text();
    await expect(region).toContainText(passage);
    const box = await region.evaluate((element, wanted) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const nodes: Text[] = [];
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        nodes.push(node as Text);
      }
      const whole = nodes.map((node) => node.data).join('');
      const at = whole.indexOf(wanted);
      if (at === -1) throw new Error(`"${wanted}" is not in the text`);
      const locate = (offset: number): [Text, number] => {
        let left = offset;
        for (const node of nodes) {
          if (left < node.data.length) return [node, left];
          left -= node.data.length;
        }
        throw new Error('offset past the text');
      };
      const charRect = (offset: number) => {
        const [node, inNode] = locate(offset);
        const range = document.createRange();
        range.setStart(node, inNode);
        range.setEnd(node, inNode + 1);
        return range.getBoundingClientRect();
      };
      (locate(at)[0].parentElement ?? element).scrollIntoView({ block: 'center' });
      const first = charRect(at);
      const last = charRect(at + wanted.length - 1);
      return {
        from: { x: first.left + 1, y: first.top + first.height / 2 },
        to: { x: last.right - 1, y: last.top + last.height / 2 },
      };
    }, passage);
    await this.page.mouse.move(box.from.x, box.from.y);
    await this.page.mouse.down();
    await this.page.mouse.move(box.to.x, box.to.y, { steps: 8 });
    await this.page.mouse.up();
  }

  /** What is read out of the selection in the text (a polite live region beside it). */
  readonly said = () =>
    this.page.getByRole('status').and(this.page.locator('.annotated-text-said'));

  /** Tabs to the text from the bill's link just above it, as a keyboard user comes to it. */
  async tabToText(): Promise<void> {
    const region = this.text();
    await expect(region).toBeVisible();
    await this.page.locator('.annotation-bill a').focus();
    // The link, then the "Text shown" choice where the bill has several texts, then the text.
    for (let step = 0; step < 3; step++) {
      await this.page.keyboard.press('Tab');
      if (await region.evaluate((element) => element === document.activeElement)) break;
    }
    await expect(region).toBeFocused();
  }

  /** Where the selection's moving end is in the text, as an offset into it. */
  private async caretOffset(): Promise<number> {
    return this.text().evaluate((element) => {
      const selection = document.getSelection();
      if (selection?.focusNode == null || !element.contains(selection.focusNode)) return -1;
      const range = document.createRange();
      range.setStart(element, 0);
      range.setEnd(selection.focusNode, selection.focusOffset);
      return range.toString().length;
    });
  }

  /**
   * Presses the arrow keys (with Shift when `select`) until the caret is at `offset`. Counted,
   * then checked: where a line wraps, one press may stay at the same offset.
   */
  private async arrowsTo(offset: number, select: boolean): Promise<void> {
    const shift = select ? 'Shift+' : '';
    for (let round = 0; round < 20; round++) {
      const now = await this.caretOffset();
      if (now === -1) throw new Error('the selection is not in the text');
      if (now === offset) return;
      const key = now < offset ? 'ArrowRight' : 'ArrowLeft';
      for (let step = 0; step < Math.abs(offset - now); step++) {
        await this.page.keyboard.press(`${shift}${key}`);
      }
    }
    throw new Error(`the caret did not reach offset ${offset}`);
  }

  /** Tabs to the text and moves its caret with the arrow keys to just before `passage`. */
  async moveCaretBefore(passage: string): Promise<void> {
    const fullText = (await this.text().textContent()) ?? '';
    const at = fullText.indexOf(passage);
    if (at === -1) throw new Error(`"${passage}" is not in the text`);
    await this.tabToText();
    await this.page.keyboard.press('Control+Home');
    await this.arrowsTo(at, false);
  }

  /** Selects with the keyboard alone, in the text itself: the caret to it, Shift+arrows over it. */
  async selectWithKeyboard(passage: string): Promise<void> {
    await this.moveCaretBefore(passage);
    const fullText = (await this.text().textContent()) ?? '';
    await this.arrowsTo(fullText.indexOf(passage) + passage.length, true);
  }

  async expectNoSeriousAccessibilityViolations(): Promise<void> {
    expect(await seriousViolations(this.page)).toEqual([]);
  }
}
