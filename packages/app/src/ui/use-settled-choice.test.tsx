import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SETTLE_MS, useSettledChoice } from './use-settled-choice.ts';

// A radio group's choice is saved once it settles: arrowing through it (a change with no pointer
// press before it, as the browser makes for each arrow key) saves the last option only; a click
// or a tap saves at once; leaving the group or the screen saves what waits.

const options = ['Support', 'Oppose', 'Watch'] as const;

function Group({ save }: { save: (kind: string) => void }) {
  const [shown, setShown] = useState<string>('Support');
  const { choose, groupProps } = useSettledChoice(save);
  return (
    <>
      <fieldset {...groupProps}>
        <legend>Position</legend>
        {options.map((option) => (
          <label key={option}>
            <input
              type="radio"
              name="position"
              checked={shown === option}
              onChange={() => {
                setShown(option);
                choose(option);
              }}
            />
            {option}
          </label>
        ))}
      </fieldset>
      <button type="button">Elsewhere</button>
    </>
  );
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function radio(name: string): HTMLElement {
  return screen.getByRole('radio', { name });
}

describe('useSettledChoice', () => {
  it('saves only the option arrowing settles on, once it has settled', () => {
    const save = vi.fn();
    render(<Group save={save} />);
    // What arrow keys do: each step checks the next radio, with no pointer press.
    fireEvent.click(radio('Oppose'));
    act(() => {
      vi.advanceTimersByTime(SETTLE_MS / 2);
    });
    fireEvent.click(radio('Watch'));
    act(() => {
      vi.advanceTimersByTime(SETTLE_MS - 1);
    });
    expect(save).not.toHaveBeenCalled();
    expect((radio('Watch') as HTMLInputElement).checked).toBe(true);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(save.mock.calls).toEqual([['Watch']]);
  });

  it('saves a click or a tap at once', () => {
    const save = vi.fn();
    render(<Group save={save} />);
    fireEvent.pointerDown(radio('Oppose'));
    fireEvent.click(radio('Oppose'));
    expect(save.mock.calls).toEqual([['Oppose']]);
    // A key pressed after a pointer press that chose nothing is a keyboard choice again.
    fireEvent.pointerDown(radio('Support'));
    fireEvent.keyDown(radio('Support'), { key: 'ArrowDown' });
    fireEvent.click(radio('Watch'));
    expect(save.mock.calls).toEqual([['Oppose']]);
  });

  it('saves what waits when focus leaves the group, not when it moves inside it', () => {
    const save = vi.fn();
    render(<Group save={save} />);
    radio('Support').focus();
    fireEvent.click(radio('Oppose'));
    radio('Oppose').focus();
    expect(save).not.toHaveBeenCalled();
    screen.getByRole('button', { name: 'Elsewhere' }).focus();
    expect(save.mock.calls).toEqual([['Oppose']]);
    act(() => {
      vi.advanceTimersByTime(SETTLE_MS);
    });
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('saves what waits when the screen goes away', () => {
    const save = vi.fn();
    const { unmount } = render(<Group save={save} />);
    fireEvent.click(radio('Watch'));
    unmount();
    expect(save.mock.calls).toEqual([['Watch']]);
    act(() => {
      vi.advanceTimersByTime(SETTLE_MS);
    });
    expect(save).toHaveBeenCalledTimes(1);
  });
});
