import '../ui/forms.css';
import { NOTE_MAX } from '@docket/core/commands';
import { useId } from 'react';

/** The "Note" field. No maxlength: a long paste is refused with a message, not cut silently. */
export function NoteField({
  value,
  onChange,
}: {
  readonly value: string;
  readonly onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="note-field">
      <label htmlFor={`${id}-note`} className="field-label">
        Note
      </label>
      <textarea
        className="text-box"
        id={`${id}-note`}
        // Private words: kept out of the browser's form restore, which writes typed text into the
        // profile's session files (issue 38).
        autoComplete="off"
        value={value}
        rows={4}
        dir="auto"
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          onChange(event.currentTarget.value);
        }}
      />
      <p id={`${id}-hint`} className="field-hint">
        Plain text; http and https addresses become links. At most{' '}
        {NOTE_MAX.toLocaleString('en-US')} characters.
      </p>
    </div>
  );
}
