import { describe, expect, it } from 'vitest';
import { frontPageHeader } from './status-toast.ts';

function laidOut(element: HTMLElement, height: number): HTMLElement {
  element.getBoundingClientRect = () =>
    ({ width: 390, height, top: 0, left: 0, right: 390, bottom: height }) as DOMRect;
  return element;
}

describe('the header a status toast sits under', () => {
  it('is the shown page’s, not a hidden page’s nor a modal’s', () => {
    const root = document.createElement('div');
    root.innerHTML = `
      <div class="ion-page ion-page-hidden"><ion-header id="hidden"></ion-header></div>
      <div class="ion-page"><ion-header id="shown"></ion-header></div>
      <ion-modal><div class="ion-page"><ion-header id="modal"></ion-header></div></ion-modal>
      <div class="ion-page"><ion-header id="unlaid"></ion-header></div>`;
    for (const id of ['hidden', 'shown', 'modal']) {
      laidOut(root.querySelector<HTMLElement>(`#${id}`) as HTMLElement, 56);
    }
    laidOut(root.querySelector<HTMLElement>('#unlaid') as HTMLElement, 0);
    expect(frontPageHeader(root)?.id).toBe('shown');
  });

  it('is none when no page shows a header', () => {
    expect(frontPageHeader(document.createElement('div'))).toBeUndefined();
  });
});
