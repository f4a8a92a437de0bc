import { describe, expect, it } from 'vitest';
import { nameModalDialog } from './modal-dialog-name.ts';

describe('naming a modal’s dialog', () => {
  it('sets the name on the dialog in the shadow root, again when the title changes', () => {
    const modal = document.createElement('div');
    const root = modal.attachShadow({ mode: 'open' });
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-label', 'Set a cloud password');
    root.append(dialog);
    nameModalDialog(modal, 'Enter your cloud password');
    expect(dialog.getAttribute('aria-label')).toBe('Enter your cloud password');
    nameModalDialog(modal, 'Reset cloud password');
    expect(dialog.getAttribute('aria-label')).toBe('Reset cloud password');
    nameModalDialog(null, 'nothing to name');
  });
});
