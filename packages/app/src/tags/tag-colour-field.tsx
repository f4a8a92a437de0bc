import { useId } from 'react';
import { tagPalette } from './tag-palette.ts';

/**
 * A tag's colour: one of the palette's, each a radio named by its colour, or any #rrggbb typed
 * in the hex field (core checks it). Native inputs: arrow keys move through the palette.
 */
export function TagColourField({
  legend,
  value,
  onChange,
}: {
  legend: string;
  value: string;
  onChange: (colour: string) => void;
}) {
  const name = useId();
  const hexId = useId();
  const lower = value.trim().toLowerCase();
  return (
    <fieldset className="tag-colour-field">
      <legend dir="auto">{legend}</legend>
      <div className="tag-palette">
        {tagPalette.map((colour) => (
          <label key={colour.hex} className="tag-palette-choice">
            <input
              type="radio"
              name={name}
              value={colour.hex}
              checked={lower === colour.hex}
              onChange={() => {
                onChange(colour.hex);
              }}
            />
            <span className="tag-swatch" style={{ background: colour.hex }} aria-hidden="true" />
            {colour.name}
          </label>
        ))}
      </div>
      <label htmlFor={hexId} className="tag-hex-label">
        Hex colour
      </label>
      <input
        id={hexId}
        className="tag-hex-input"
        type="text"
        value={value}
        maxLength={7}
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => {
          onChange(event.currentTarget.value);
        }}
      />
      <span
        className="tag-swatch tag-swatch-large"
        aria-hidden="true"
        style={{ background: /^#[0-9a-f]{6}$/.test(lower) ? lower : 'transparent' }}
      />
    </fieldset>
  );
}
