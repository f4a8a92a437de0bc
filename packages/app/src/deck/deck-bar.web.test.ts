import '@ionic/react/css/core.css';
import '@ionic/react/css/normalize.css';
import '@ionic/react/css/structure.css';
import '@ionic/react/css/typography.css';
import '@ionic/react/css/padding.css';
import '../theme/app.css';
import './deck.css';
import {
  IonApp,
  IonButton,
  IonContent,
  IonHeader,
  IonPage,
  IonTitle,
  IonToolbar,
  setupIonicReact,
} from '@ionic/react';
import { createElement as h } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';

// In a real browser with Ionic's own page, content and buttons, because the phone's bar is
// layout: deck.css pins the deck's buttons to the bottom of Ionic's page on a phone (issue 40) and
// leaves them under the card on a laptop. The markup is the deck screen's, cut to what the CSS
// reads (swipeable-bills-screen.tsx); e2e/phone.spec.ts checks the screen itself.

let root: Root | null = null;

beforeAll(() => {
  setupIonicReact();
});

afterEach(() => {
  root?.unmount();
  root = null;
  document.body.replaceChildren();
});

function button(label: string, fill?: 'outline' | 'clear') {
  return h(IonButton, fill === undefined ? { key: label } : { key: label, fill }, label);
}

/** The deck screen with a card `cardHeight` px tall, once Ionic has drawn it. */
async function mountDeck(cardHeight: number): Promise<HTMLElement> {
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  root.render(
    h(
      IonApp,
      null,
      h(
        IonPage,
        null,
        h(IonHeader, null, h(IonToolbar, null, h(IonTitle, null, 'Bills'))),
        h(
          IonContent,
          { className: 'ion-padding' },
          h(
            'div',
            { className: 'page-body' },
            h('h1', null, 'Bills'),
            h(
              'section',
              { className: 'deck', 'aria-label': 'Bill deck' },
              h(
                'div',
                { className: 'deck-stage' },
                h(
                  'article',
                  { className: 'deck-card', style: { height: `${String(cardHeight)}px` } },
                  h('h2', null, 'AB 2'),
                ),
              ),
              h(
                'div',
                { className: 'deck-bar' },
                h('div', { className: 'deck-actions' }, [
                  button('Dismiss', 'outline'),
                  button('Later', 'outline'),
                  button('Track'),
                ]),
                h('div', { className: 'deck-undo' }, button('Undo', 'clear')),
              ),
            ),
            h('p', { className: 'deck-announcement' }, 'Tracked AB 1. Next: AB 2.'),
          ),
        ),
      ),
    ),
  );
  await expect
    .poll(() => document.querySelectorAll('ion-button.hydrated, ion-content.hydrated').length)
    .toBe(5);
  const scroller = document
    .querySelector('ion-content')
    ?.shadowRoot?.querySelector('.inner-scroll');
  if (!(scroller instanceof HTMLElement)) throw new Error('ion-content has no scroller');
  return scroller;
}

function rect(selector: string): DOMRect {
  const element = document.querySelector(selector);
  if (element === null) throw new Error(`nothing matches ${selector}`);
  return element.getBoundingClientRect();
}

function buttonRects(): Record<string, DOMRect> {
  return Object.fromEntries(
    [...document.querySelectorAll('.deck-bar ion-button')].map((element) => [
      element.textContent,
      element.getBoundingClientRect(),
    ]),
  );
}

describe("the deck's buttons", () => {
  it('sit in a bar across the bottom of the page on a phone, and the card scrolls above it', async () => {
    await page.viewport(390, 844);
    const scroller = await mountDeck(900);
    const pageBox = rect('.ion-page');
    const bar = rect('.deck-bar');
    expect(Math.abs(bar.bottom - pageBox.bottom)).toBeLessThan(1);
    expect(bar.left).toBe(0);
    expect(bar.width).toBe(390);
    const buttons = buttonRects();
    expect(Object.keys(buttons)).toEqual(['Dismiss', 'Later', 'Track', 'Undo']);
    for (const [name, box] of Object.entries(buttons)) {
      expect(box.height, name).toBeGreaterThanOrEqual(44);
      expect(box.width, name).toBeGreaterThan(80);
      expect(box.top, name).toBeGreaterThanOrEqual(bar.top);
    }
    expect(rect('.deck-card h2').bottom).toBeLessThan(bar.top);

    // At the end of the page, what follows the card is above the bar, not under it.
    scroller.scrollTop = scroller.scrollHeight;
    await expect.poll(() => rect('.deck-announcement').bottom).toBeLessThanOrEqual(bar.top);
    expect(rect('.deck-bar').top).toBe(bar.top);
  });

  it('stay under the card on a laptop, and on a phone made short by its keyboard', async () => {
    await page.viewport(1280, 800);
    await mountDeck(300);
    const laptop = rect('.deck-bar');
    expect(laptop.top).toBeGreaterThan(rect('.deck-card').bottom);
    expect(laptop.bottom).toBeLessThan(rect('.deck-announcement').top);
    expect(laptop.width).toBeLessThan(1280);

    await page.viewport(390, 480);
    await expect
      .poll(() => getComputedStyle(document.querySelector('.deck-bar') as Element).position)
      .toBe('static');
    expect(rect('.deck-bar').top).toBeGreaterThan(rect('.deck-card').bottom);
  });
});
