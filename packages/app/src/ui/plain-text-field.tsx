import { useId, type InputHTMLAttributes } from 'react';
import './plain-text-field.css';

// The sign-in screen's text field: a native input drawn as TextField draws Ionic's (label in the
// outline's notch, the outline thicker and in the primary colour while focused). The sign-in
// screen is the first a new visitor waits for, and Ionic's input (its code, and its measuring of
// the notch as it starts) was the largest part of that screen's script left to cut (issue 19).
// The label is a real <label for>, so the field is found and announced by it.

export type PlainTextFieldProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange' | 'id'
> & {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
};

export function PlainTextField({ label, onChange, ...input }: PlainTextFieldProps) {
  const id = useId();
  return (
    <div className="plain-text-field">
      <input
        {...input}
        id={id}
        onChange={(event) => {
          onChange(event.target.value);
        }}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}
