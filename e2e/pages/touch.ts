import { expect, type Locator, type Page } from '@playwright/test';

// A finger on the screen, through Chromium's own touch input (DevTools' Input.dispatchTouchEvent):
// the page gets the touchstart, touchmove and touchend a phone would send, one move at a time.

/**
 * Puts a finger on `from`'s centre, draws it `distance` px down in steps, runs `whilePulled` with
 * the finger still down (to check what the pull shows), then lets go.
 */
export async function pullDown(
  page: Page,
  from: Locator,
  whilePulled: () => Promise<void>,
  distance = 240,
): Promise<void> {
  const box = await from.boundingBox();
  expect(box, 'the place to pull from is on screen').not.toBeNull();
  if (box === null) return;
  const x = Math.round(box.x + box.width / 2);
  const y = Math.round(box.y + box.height / 2);
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    const steps = 12;
    for (let step = 1; step <= steps; step += 1) {
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x, y: y + Math.round((distance * step) / steps) }],
      });
    }
    await whilePulled();
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  } finally {
    await cdp.detach();
  }
}

/**
 * The controls (by the name a person knows them by) whose box on screen is under 44×44 CSS px
 * (WCAG 2.5.5's target size), each as "name: W×H", so a failed `toEqual([])` names them. Each
 * must be visible.
 */
export async function underThumbSize(
  controls: Readonly<Record<string, Locator>>,
): Promise<string[]> {
  const small: string[] = [];
  for (const [name, control] of Object.entries(controls)) {
    await expect(control).toBeVisible();
    const box = await control.boundingBox();
    if (box === null || box.width < 44 || box.height < 44) {
      const size = box === null ? 'off screen' : `${box.width.toFixed(0)}×${box.height.toFixed(0)}`;
      small.push(`${name}: ${size}`);
    }
  }
  return small;
}
