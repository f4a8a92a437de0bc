import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ColourChoice, focusChosenColour } from './colour-choice.tsx';

afterEach(cleanup);

describe('focusChosenColour', () => {
  it('takes the focus to the colour chosen, where Enter in the text leads', () => {
    const { container } = render(
      <form>
        <button type="button">Before</button>
        <ColourChoice value="#f8bbd0" onChange={() => undefined} />
      </form>,
    );
    focusChosenColour(container.querySelector('form'));
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Pink' }));
  });

  it('does nothing without a form', () => {
    expect(() => {
      focusChosenColour(null);
    }).not.toThrow();
  });
});
