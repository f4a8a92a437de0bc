import {
  test as base,
  type ConsoleMessage,
  expect,
  type Page,
  type TestInfo,
} from '@playwright/test';

export { expect };

/** How long a screen may take to be painted after a navigation before the test fails. */
const PAINT_DEADLINE_MS = 10_000;

/**
 * Whether a person sees anything on the screen: some text element in the viewport whose own
 * box and every ancestor (across slots and shadow roots) is displayed, visible and, all together,
 * above half opacity. A page Ionic left at `ion-page-invisible` paints none. Runs in the page.
 */
function somethingPainted(): boolean {
  const renderedParent = (node: Node): Node | null => {
    if (node instanceof Element && node.assignedSlot !== null) return node.assignedSlot;
    if (node.parentNode instanceof ShadowRoot) return node.parentNode.host;
    return node.parentNode;
  };
  const painted = (element: Element): boolean => {
    if (element.textContent.trim() === '') return false;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    if (box.bottom <= 0 || box.right <= 0 || box.top >= innerHeight || box.left >= innerWidth) {
      return false;
    }
    let opacity = 1;
    for (let node: Node | null = element; node !== null; node = renderedParent(node)) {
      if (!(node instanceof Element)) continue;
      const style = getComputedStyle(node);
      if (style.display === 'none' || style.visibility !== 'visible') return false;
      opacity *= Number(style.opacity);
      if (opacity <= 0.5) return false;
    }
    return true;
  };
  const candidates = document.querySelectorAll(
    'h1, h2, h3, p, li, label, button, ion-button, ion-title, ion-label, a, pre, td',
  );
  for (const element of Array.from(candidates)) {
    if (painted(element)) return true;
  }
  // Not the app: a page of the browser's own (an error page) or a file shown as text.
  return document.getElementById('root') === null;
}

async function waitUntilPainted(page: Page, stillCurrent: () => boolean): Promise<boolean> {
  const deadline = Date.now() + PAINT_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (!stillCurrent() || page.isClosed()) return true;
    const seen = await page.evaluate(somethingPainted).catch(() => null);
    if (seen === true) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return !stillCurrent();
}

/**
 * What a page showed when its test failed: its errors and what the screen says (headings,
 * statuses and alerts) attached first (the reporter prints an attachment's first 300
 * characters), the whole screen to stdout. CI keeps the output, not the traces.
 */
async function describeFailure(
  page: Page,
  errors: readonly string[],
  testInfo: TestInfo,
  index: number,
  count: number,
): Promise<void> {
  const says = await page
    .locator('h1, [role="alert"], [role="status"], li strong')
    .allInnerTexts()
    .catch(() => []);
  const text = (list: readonly string[]) =>
    list
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .join(' | ') || '(none)';
  const which = count > 1 ? ` (page ${String(index + 1)} of ${String(count)})` : '';
  await testInfo.attach(`the screen when the test failed${which}`, {
    body: `errors: ${text(errors)}\nsays: ${text(says)}\nat: ${page.url()}`,
    contentType: 'text/plain',
  });
  const screen = await page
    .locator('body')
    .ariaSnapshot({ timeout: 5_000 })
    .catch((error: unknown) => `(no snapshot: ${String(error)})`);
  console.log(`The screen when "${testInfo.title}" failed${which}:\n${screen}`);
}

/**
 * Every test's page is watched: after each navigation of its main frame (loads and the app's
 * own history changes alike) the screen must be painted within 10 s, unless another navigation
 * came first; and so must the screen the test ends on. A test that finds its controls by role
 * would otherwise pass on a blank page.
 */
export const test = base.extend<{ paintedScreens: undefined }>({
  paintedScreens: [
    async ({ page }, use, testInfo) => {
      // What the page showed and said went wrong, attached to a failure (the reporter prints it):
      // CI keeps the output, not the traces.
      const errors: string[] = [];
      const onConsole = (message: ConsoleMessage) => {
        if (message.type() === 'error') errors.push(message.text());
      };
      const onPageError = (error: Error) => {
        errors.push(`uncaught: ${error.message}`);
      };
      page.on('console', onConsole);
      page.on('pageerror', onPageError);
      const blank: string[] = [];
      const checks: Promise<void>[] = [];
      let navigation = 0;
      const watch = (url: string) => {
        navigation += 1;
        const mine = navigation;
        checks.push(
          waitUntilPainted(page, () => mine === navigation).then((ok) => {
            if (!ok) blank.push(url);
          }),
        );
      };
      const onNavigated = (frame: { url(): string }) => {
        if (frame === page.mainFrame()) watch(frame.url());
      };
      page.on('framenavigated', onNavigated);
      await use(undefined);
      page.off('framenavigated', onNavigated);
      page.off('console', onConsole);
      page.off('pageerror', onPageError);
      if (testInfo.status !== testInfo.expectedStatus && !page.isClosed()) {
        // The test's own page, or (when a test worked on pages of contexts it made, as the
        // multi-account specs do, leaving its own page blank) each of those.
        const others = (page.context().browser()?.contexts() ?? [])
          .flatMap((context) => context.pages())
          .filter((other) => other !== page && !other.isClosed());
        const shown = page.url() === 'about:blank' && others.length > 0 ? others : [page];
        for (const [index, each] of shown.entries()) {
          await describeFailure(each, each === page ? errors : [], testInfo, index, shown.length);
        }
      }
      if (!page.isClosed()) watch(page.url());
      await Promise.all(checks);
      expect(blank, 'screens that stayed blank (nothing painted) after a navigation').toEqual([]);
    },
    { auto: true },
  ],
});
