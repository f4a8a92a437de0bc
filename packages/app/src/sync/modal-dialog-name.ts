/**
 * Names an Ionic modal's dialog. Ionic puts role="dialog" on a wrapper inside the modal's shadow
 * root and copies the modal's aria-label to it once, when the modal is first made; a modal whose
 * title changes later (another mode, the reset view) keeps the first name unless it is set
 * again here.
 */
export function nameModalDialog(modal: HTMLElement | null, name: string): void {
  const dialog = modal?.shadowRoot?.querySelector('[role="dialog"]');
  if (dialog !== null && dialog !== undefined && dialog.getAttribute('aria-label') !== name) {
    dialog.setAttribute('aria-label', name);
  }
}
