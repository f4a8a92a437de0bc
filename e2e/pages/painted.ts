import { expect, test, type Locator, type Page } from '@playwright/test';

/**
 * What a person can see, not what the DOM holds. A role or text query passes on a page that
 * Ionic left at opacity 0 (`ion-page-invisible`), so every test checks, after each navigation,
 * that the screen it landed on is painted: its text is in the viewport, and the element and
 * every ancestor (across shadow roots) is displayed, visible, with a combined opacity above one
 * half, and it is the topmost element where it lies.
 */

/** Why `element` is not painted, or null when a person can see it. Runs in the page. */
function unpaintedReason(element: Element): string | null {
  // The parent in the tree that is rendered: a slotted node's slot, past a shadow root its host.
  const renderedParent = (node: Node): Node | null => {
    if (node instanceof Element && node.assignedSlot !== null) return node.assignedSlot;
    if (node.parentNode instanceof ShadowRoot) return node.parentNode.host;
    return node.parentNode;
  };
  const box = element.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return 'it has no size';
  const inView = box.bottom > 0 && box.right > 0 && box.top < innerHeight && box.left < innerWidth;
  if (!inView) return 'it is outside the viewport';
  let opacity = 1;
  for (let node: Element | null = element; node !== null;) {
    const style = getComputedStyle(node);
    const name = `<${node.tagName.toLowerCase()} class="${node.className}">`;
    if (style.display === 'none') return `${name} is not displayed`;
    if (style.visibility !== 'visible') return `${name} is ${style.visibility}`;
    opacity *= Number(style.opacity);
    if (opacity <= 0.5) return `${name} brings its opacity to ${opacity.toFixed(2)}`;
    let parent = renderedParent(node);
    while (parent !== null && !(parent instanceof Element)) parent = renderedParent(parent);
    node = parent;
  }
  // Hidden behind something else (another page, a backdrop)? Check the middle of the part of
  // the box that is in the viewport.
  const x = (Math.max(box.left, 0) + Math.min(box.right, innerWidth)) / 2;
  const y = (Math.max(box.top, 0) + Math.min(box.bottom, innerHeight)) / 2;
  let top: Element | null = document.elementFromPoint(x, y);
  while (top?.shadowRoot) {
    const inner = top.shadowRoot.elementFromPoint(x, y);
    if (inner === null || inner === top) break;
    top = inner;
  }
  if (top === null) return 'nothing is at its place on the screen';
  const covers = (a: Element, b: Element) => {
    for (let n: Node | null = b; n !== null; n = renderedParent(n)) {
      if (n === a) return true;
    }
    return false;
  };
  if (!covers(element, top) && !covers(top, element)) {
    return `it is covered by <${top.tagName.toLowerCase()} class="${top.className}">`;
  }
  return null;
}

/** Asserts that a person can see `locator` (the first element it finds), waiting for it. */
export async function expectPainted(locator: Locator, timeout = 10_000): Promise<void> {
  await expect(locator.first()).toBeAttached({ timeout });
  // Every reason seen on the way, with its time: the last one alone ("it left the page") hides
  // why the element was not painted while it was there.
  const started = Date.now();
  const seen: string[] = [];
  const note = (reason: string | null) => {
    const entry = `${reason ?? 'painted'} (${Date.now() - started} ms)`;
    if (seen.at(-1)?.split(' (')[0] !== (reason ?? 'painted')) seen.push(entry);
    return reason;
  };
  try {
    await expect
      .poll(
        async () => {
          try {
            // A person scrolls to what is below the fold; a page at opacity 0 stays unpainted.
            await locator
              .first()
              .scrollIntoViewIfNeeded({ timeout: 1_000 })
              .catch(() => undefined);
            return note(
              await locator.first().evaluate(unpaintedReason, undefined, { timeout: 1_000 }),
            );
          } catch {
            return note('it left the page');
          }
        },
        { timeout, message: `${locator.toString()} is painted` },
      )
      .toBeNull();
  } catch (error) {
    throw new Error(`${locator.toString()} is not painted: ${seen.join(', then ')}`, {
      cause: error,
    });
  }
}

/**
 * Asserts that the screen the page is on is painted: a level-1 heading (every screen has one),
 * or `what` when given, is seen by a person.
 */
export async function expectScreenPainted(page: Page, what?: Locator): Promise<void> {
  await expectPainted(what ?? page.getByRole('heading', { level: 1 }).filter({ visible: true }));
}

/**
 * Text painted anywhere on the screen: for checks such as "the toast has left". Never waits for
 * an element: one counted here may leave before it is measured (a toast's leaving animation
 * ends between the two steps), and `evaluate` would wait for another to come, which never does.
 */
export async function isPainted(locator: Locator): Promise<boolean> {
  const [element] = await locator.elementHandles();
  if (element === undefined) return false;
  // An element taken out of the page has no size, so it reads as not painted.
  const reason = await element.evaluate(unpaintedReason).catch(() => 'gone');
  await element.dispose();
  return reason === null;
}

/**
 * Screenshots of the page as it is at a phone's size (390×844) and a laptop's (1280×800), saved
 * with the test's output as `<name>-390.png` and `<name>-1280.png` to be opened and looked at;
 * the page is left at the size it had.
 */
export async function screenshotsAtBothSizes(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: test.info().outputPath(`${name}-${String(size.width)}.png`) });
  }
  if (before !== null) await page.setViewportSize(before);
}
