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
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getComputedTiming().endTime === Infinity,
      ),
  );
  const builder = new AxeBuilder({ page });
  if (include !== undefined) builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
}
