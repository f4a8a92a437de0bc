import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe-core's serious and critical findings on the page as it is now, as readable lines
 * ("color-contrast: … (#id, .class)"), so a failed `toEqual([])` names what and where.
 *
 * Waits first until no finite animation is running: a toast or a page fading in has its final
 * colours only at the end, and axe measuring a half-transparent toast reports a contrast its
 * settled state does not have. Endless ones (spinners) do not hold the scan back.
 * `include` narrows the scan to a selector (a dialog, a panel).
 */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  // A scan takes a second or more, and a toast may start to leave (fade) during it; then the
  // scan measured a half-transparent toast. So the page's overlays and animations are compared
  // before and after, and a scan during which they changed is made again.
  for (let attempt = 1; ; attempt += 1) {
    await page.waitForFunction(settled);
    const before = await page.evaluate(overlayState);
    const builder = new AxeBuilder({ page });
    if (include !== undefined) builder.include(include);
    const results = await builder.analyze();
    const after = await page.evaluate(overlayState);
    const stillSettled = await page.evaluate(settled);
    if ((before !== after || !stillSettled) && attempt < 4) continue;
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
      );
  }
}

/** No finite animation running (endless ones, spinners, do not count). Runs in the page. */
function settled(): boolean {
  return document
    .getAnimations()
    .every(
      (animation) =>
        animation.playState !== 'running' ||
        animation.effect?.getComputedTiming().endTime === Infinity,
    );
}

/** The overlays on the page and the animations it has made, as one string. Runs in the page. */
function overlayState(): string {
  const overlays = Array.from(document.querySelectorAll('ion-toast, ion-modal, ion-alert'));
  return `${overlays.map((overlay) => overlay.id).join(',')} ${document.getAnimations().length}`;
}
