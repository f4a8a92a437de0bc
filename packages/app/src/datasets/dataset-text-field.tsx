import { TextField, type TextFieldProps } from '../ui/text-field.tsx';
import type { DatasetFormText, useDatasetForm } from './use-dataset-form.ts';

// The add-dataset form's typed fields, each with core's refusal of it below.

/** The add-dataset form as `useDatasetForm` hands it to the parts that show it. */
export type DatasetFormState = ReturnType<typeof useDatasetForm>;

/** A field of the form as its refusal is named: `${id}-${field}-error`, one id per form. */
export type ErrorIdOf = (field: string) => string;

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (message === undefined) return null;
  return (
    <p id={id} className="field-error">
      {message}
    </p>
  );
}

/** A typed field of the form, named by the key of `DatasetFormText` it edits. */
export type DatasetTextFieldName = Exclude<keyof DatasetFormText, 'sourceKind'>;

/** The props of a typed field besides what the form gives it: its label, hint and input kind. */
export type DatasetTextInput = Omit<TextFieldProps, 'value' | 'onChange' | 'aria-describedby'>;

/** One of the form's typed fields, with core's refusal of it below. */
export function DatasetTextField({
  form,
  field,
  errorId,
  ...input
}: {
  form: DatasetFormState;
  field: DatasetTextFieldName;
  errorId: string;
} & DatasetTextInput) {
  const error = form.errors[field];
  return (
    <>
      <TextField
        {...input}
        value={form.text[field]}
        aria-describedby={error === undefined ? undefined : errorId}
        onChange={(value) => {
          form.set(field, value);
        }}
      />
      <FieldError id={errorId} message={error} />
    </>
  );
}
