import { afterEach, describe, expect, it } from 'vitest';
import { defineCustomElement as defineIonButton } from '@ionic/core/components/ion-button.js';
import { catchFallingFocus, focusControl, visibleScreenHeading } from './falling-focus.ts';

// In a real browser: a disabled or removed control drops its focus to the body only where layout
// and focus are real.

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

function mountScreen(): { page: HTMLElement; heading: HTMLElement } {
  const page = document.createElement('div');
  page.className = 'ion-page';
  const heading = document.createElement('h1');
  heading.textContent = 'Bills';
  const field = document.createElement('input');
  field.setAttribute('aria-label', 'Search');
  page.append(heading, field);
  document.body.append(page);
  return { page, heading };
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('focus after a control goes away', () => {
  it('gives focus that falls to the body to the fallback, and leaves focus put elsewhere', async () => {
    const { page, heading } = mountScreen();
    const undo = document.createElement('button');
    undo.textContent = 'Undo';
    const deck = document.createElement('section');
    deck.tabIndex = 0;
    page.append(deck, undo);
    undo.focus();
    catchFallingFocus(() => deck);
    // The last Undo is disabled once it is done: the browser drops its focus to the body.
    undo.disabled = true;
    await frames(3);
    expect(document.activeElement).toBe(deck);

    // A person who moved on keeps where they went.
    const field = page.querySelector('input');
    field?.focus();
    catchFallingFocus(() => heading);
    await frames(3);
    expect(document.activeElement).toBe(field);
  });

  it('catches a control removed from the page a moment after the action', async () => {
    const { page, heading } = mountScreen();
    const save = document.createElement('button');
    save.textContent = 'Save';
    page.append(save);
    save.focus();
    catchFallingFocus(() => heading);
    await frames(2);
    expect(document.activeElement).toBe(save);
    save.remove();
    await frames(3);
    expect(document.activeElement).toBe(heading);
  });
});

describe('the screen on show', () => {
  it("is the visible page's heading, not a hidden page's", () => {
    const hidden = document.createElement('div');
    hidden.className = 'ion-page ion-page-hidden';
    hidden.style.display = 'none';
    hidden.append(Object.assign(document.createElement('h1'), { textContent: 'Tracked' }));
    document.body.append(hidden);
    const { heading } = mountScreen();
    expect(visibleScreenHeading()).toBe(heading);
  });
});

describe('focusControl', () => {
  afterEach(() => {
    document.body.replaceChildren();
  });

  it('focuses an ion-button, whose own focus() does nothing, the moment it is ready', async () => {
    defineIonButton();
    const button = document.createElement('ion-button');
    button.textContent = 'Confirm';
    document.body.append(button);
    button.focus();
    expect(document.activeElement).toBe(document.body);
    focusControl(button);
    await frames(5);
    expect(document.activeElement).toBe(button);
    expect(button.shadowRoot?.activeElement?.tagName).toBe('BUTTON');
  });

  it('focuses a plain control as it is', () => {
    const field = document.createElement('input');
    document.body.append(field);
    focusControl(field);
    expect(document.activeElement).toBe(field);
  });
});
