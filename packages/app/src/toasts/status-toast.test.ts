import { describe, expect, it } from 'vitest';
import { frontTabBar, STATUS_TOAST_MS, statusToastMs } from './status-toast.ts';

function laidOut(element: HTMLElement, height: number): HTMLElement {
  element.getBoundingClientRect = () =>
    ({ width: 390, height, top: 0, left: 0, right: 390, bottom: height }) as DOMRect;
  return element;
}

describe('the tab bar a status toast sits above', () => {
  it('is the shown page’s, not a hidden page’s nor a modal’s', () => {
    const root = document.createElement('div');
    root.innerHTML = `
      <div class="ion-page ion-page-hidden"><ion-tab-bar id="hidden"></ion-tab-bar></div>
      <div class="ion-page"><ion-tab-bar id="shown"></ion-tab-bar></div>
      <ion-modal><div class="ion-page"><ion-tab-bar id="modal"></ion-tab-bar></div></ion-modal>
      <div class="ion-page"><ion-tab-bar id="unlaid"></ion-tab-bar></div>`;
    for (const id of ['hidden', 'shown', 'modal']) {
      laidOut(root.querySelector<HTMLElement>(`#${id}`) as HTMLElement, 56);
    }
    laidOut(root.querySelector<HTMLElement>('#unlaid') as HTMLElement, 0);
    expect(frontTabBar(root)?.id).toBe('shown');
  });

  it('is none when no page shows one', () => {
    expect(frontTabBar(document.createElement('div'))).toBeUndefined();
  });
});

describe('how long a status stays', () => {
  it('is four seconds for a short sentence, longer for a long one', () => {
    expect(statusToastMs('Tag added.')).toBe(STATUS_TOAST_MS);
    const reset =
      'The cloud password is reset. Your other devices will bring their work back in line with this one when they next sync.';
    expect(statusToastMs(reset)).toBeGreaterThanOrEqual(6_500);
  });
});
