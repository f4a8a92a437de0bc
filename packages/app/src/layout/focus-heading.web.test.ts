import { afterEach, describe, expect, it } from 'vitest';
import { focusHeadingOf } from './focus-heading.ts';

// In a real browser, because focus is about layout: an element under `display: none` cannot take
// focus, and one that becomes hidden loses it to the body. Ionic hides a page that way
// (`ion-page-hidden`) while a transition runs, which is where a screen's first focus went missing.

function frames(count: number): Promise<void> {
  return new Promise((resolve) => {
    const step = (left: number) => {
      if (left === 0) resolve();
      else
        requestAnimationFrame(() => {
          step(left - 1);
        });
    };
    step(count);
  });
}

/** An outer page holding the screen's page, as IonTabs nests a tab's page in the tabs page. */
function mountScreen(): { outer: HTMLElement; page: HTMLElement; heading: HTMLElement } {
  const outer = document.createElement('div');
  const page = document.createElement('div');
  page.className = 'ion-page';
  const heading = document.createElement('h1');
  heading.textContent = 'Bills';
  const field = document.createElement('input');
  field.setAttribute('aria-label', 'Search');
  page.append(heading, field);
  outer.append(page);
  document.body.append(outer);
  return { outer, page, heading };
}

const signals: { cancelled: boolean }[] = [];
function start(page: Element): void {
  const signal = { cancelled: false };
  signals.push(signal);
  focusHeadingOf(page, signal);
}

afterEach(() => {
  for (const signal of signals.splice(0)) signal.cancelled = true;
  document.body.replaceChildren();
});

describe('focus on entering a screen', () => {
  it('lands on the heading once a page hidden during the transition is shown', async () => {
    const { outer, page, heading } = mountScreen();
    outer.style.display = 'none';
    start(page);
    await frames(3);
    expect(document.activeElement).toBe(document.body);
    outer.style.display = '';
    await frames(3);
    expect(document.activeElement).toBe(heading);
    expect(heading.getAttribute('tabindex')).toBe('-1');
  });

  it('gives it back when focus falls to the body without the person', async () => {
    const { outer, page, heading } = mountScreen();
    start(page);
    expect(document.activeElement).toBe(heading);
    outer.style.display = 'none';
    await frames(2);
    expect(document.activeElement).toBe(document.body);
    outer.style.display = '';
    await frames(3);
    expect(document.activeElement).toBe(heading);
  });

  it('leaves focus where the person put it', async () => {
    const { page, heading } = mountScreen();
    start(page);
    expect(document.activeElement).toBe(heading);
    const elsewhere = document.createElement('button');
    elsewhere.textContent = 'Tracked';
    document.body.append(elsewhere);
    elsewhere.focus();
    await frames(3);
    expect(document.activeElement).toBe(elsewhere);
  });

  it('stops watching once the person acts: focus their action drops is not taken to the heading', async () => {
    const { page, heading } = mountScreen();
    start(page);
    expect(document.activeElement).toBe(heading);
    const signIn = document.createElement('button');
    signIn.textContent = 'Sign in';
    page.append(signIn);
    signIn.focus();
    signIn.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    // The button is disabled while its work runs, and focus falls to the body.
    signIn.disabled = true;
    await frames(3);
    expect(document.activeElement).toBe(document.body);
  });

  it('never takes focus from a field of the page that had it first', async () => {
    const { page, heading } = mountScreen();
    const field = page.querySelector('input');
    field?.focus();
    start(page);
    await frames(3);
    expect(document.activeElement).toBe(field);
    expect(document.activeElement).not.toBe(heading);
  });
});
