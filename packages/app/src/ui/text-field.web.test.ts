import { createElement, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { TextField } from './text-field.tsx';

// In a real browser with Ionic's input: a form that submits on Enter reads the fields' state, so
// the state must hold the last keystroke by then. Ionic's ionInput is not an event React
// schedules as discrete, and without TextField making its update at once, a submit in the same
// task as the last keystroke read the text from before it.

let root: Root | null = null;

afterEach(() => {
  root?.unmount();
  root = null;
  document.body.replaceChildren();
});

function NameForm({ onSubmit }: { readonly onSubmit: (name: string) => void }) {
  const [name, setName] = useState('');
  return createElement(
    'form',
    {
      onSubmit: (event: SubmitEvent) => {
        event.preventDefault();
        onSubmit(name);
      },
    },
    createElement(TextField, { label: 'Name', value: name, onChange: setName }),
  );
}

async function nativeInput(): Promise<HTMLInputElement> {
  for (let tries = 0; tries < 200; tries += 1) {
    const input = document.querySelector('ion-input input');
    if (input instanceof HTMLInputElement) return input;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('Ionic did not render its input');
}

describe('TextField', () => {
  it('has the last keystroke in state when Enter submits in the same moment', async () => {
    const submitted: string[] = [];
    const host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    root.render(createElement(NameForm, { onSubmit: (name) => submitted.push(name) }));
    const input = await nativeInput();
    const form = input.closest('form');
    if (form === null) throw new Error('no form');
    for (const typed of ['A', 'An', 'Ana']) {
      // One keystroke, then (for the last) the submit, with no task between them.
      input.value = typed;
      input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    }
    form.requestSubmit();
    expect(submitted).toEqual(['Ana']);
  });
});
