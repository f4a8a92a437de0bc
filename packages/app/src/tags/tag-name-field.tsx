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
    if (!autoFocus) return;
    // Ionic's input renders its native field a few frames after React mounts it; a setFocus
    // before that does nothing, and focus stayed on the body where the "New tag" button had it
    // (issue 40). Focus the field once it is there, unless the person went elsewhere meanwhile.
    let frame = 0;
    let left = 60;
    const attempt = () => {
      const field = input.current?.querySelector('input');
      const active = document.activeElement;
      if (field != null && active === field) return;
      if (active !== null && active !== document.body) return;
      field?.focus();
      if (--left > 0) frame = requestAnimationFrame(attempt);
    };
    attempt();
    return () => {
      cancelAnimationFrame(frame);
    };
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
