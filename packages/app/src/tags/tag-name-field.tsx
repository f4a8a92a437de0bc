import { IonInput } from '@ionic/react';
import { TAG_NAME_MAX } from '@docket/core/commands';
import { useEffect, useId, useRef } from 'react';

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
      <IonInput
        ref={input}
        label="Tag name"
        labelPlacement="stacked"
        fill="outline"
        value={value}
        maxlength={TAG_NAME_MAX}
        autocomplete="off"
        aria-describedby={error === null ? undefined : errorId}
        aria-invalid={error === null ? undefined : 'true'}
        onIonInput={(event) => {
          onChange(event.detail.value ?? '');
        }}
      />
      {error !== null && (
        <p id={errorId} className="tag-field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
