import { useId } from 'react';
import { highlightColourName, highlightColours } from './highlight-colours.ts';

/** The palette as radio buttons, each with its name; a colour from elsewhere is offered too. */
export function ColourChoice({
  value,
  onChange,
}: {
  readonly value: string;
  readonly onChange: (value: string) => void;
}) {
  const name = useId();
  const current = value.toLowerCase();
  const choices = highlightColours.some((colour) => colour.value === current)
    ? highlightColours
    : [...highlightColours, { name: highlightColourName(current), value: current }];
  return (
    <fieldset className="colour-choice">
      <legend>Colour</legend>
      {choices.map((colour) => (
        <label key={colour.value} className="colour-option">
          <input
            type="radio"
            name={name}
            value={colour.value}
            checked={colour.value === current}
            onChange={() => {
              onChange(colour.value);
            }}
          />
          <span
            className="colour-swatch"
            aria-hidden="true"
            style={{ backgroundColor: colour.value }}
          />
          {colour.name}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Focuses the colour chosen in `form`'s colour choice, a highlight form's first field: where
 * Enter in the text leads, to go on from a passage selected by keyboard.
 */
export function focusChosenColour(form: HTMLFormElement | null): void {
  form?.querySelector<HTMLInputElement>('.colour-choice input:checked')?.focus();
}
