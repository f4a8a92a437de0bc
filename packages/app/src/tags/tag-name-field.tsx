import { TAG_NAME_MAX } from '@docket/core/commands';
import { useEffect, useId, useRef } from 'react';
import { TextField } from '../ui/text-field.tsx';

/** The "Tag name" field with core's refusal (empty, too long, a duplicate) shown beside it. */
export function TagNameField({
  value,
  error,
  onChange,
  autoFocus = false,
}: {
  value: string;
  error: string | null;
  onChange: (name: string) => void;
  autoFocus?: boolean;
}) {
  const input = useRef<HTMLIonInputElement>(null);
  const errorId = `${useId()}-error`;
  useEffect(() => {
    // Ionic's input upgrades after the first paint; setFocus waits for it.
    if (autoFocus) input.current?.setFocus().catch(() => undefined);
  }, [autoFocus]);
  return (
    <>
      <TextField
        ref={input}
        label="Tag name"
        value={value}
        maxlength={TAG_NAME_MAX}
        autocomplete="off"
        aria-describedby={error === null ? undefined : errorId}
        aria-invalid={error === null ? undefined : 'true'}
        onChange={onChange}
      />
      {error !== null && (
        <p id={errorId} className="tag-field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
