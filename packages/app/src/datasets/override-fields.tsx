import { DatasetTextField, type DatasetFormState, type ErrorIdOf } from './dataset-text-field.tsx';

/** The jurisdiction and session a dataset's bills get when their files do not say or say wrongly. */
export function OverrideFields({ form, errorId }: { form: DatasetFormState; errorId: ErrorIdOf }) {
  return (
    <fieldset>
      <legend>Overrides (optional)</legend>
      <DatasetTextField
        form={form}
        field="jurisdiction"
        errorId={errorId('jurisdiction')}
        label="Jurisdiction"
        helperText='Only when the files do not say or say wrongly: "us", "CA", "us-ca" or a state name.'
      />
      <DatasetTextField
        form={form}
        field="session"
        errorId={errorId('session')}
        label="Session"
        helperText='For example "118" or "2023-2024 Regular Session".'
      />
    </fieldset>
  );
}
