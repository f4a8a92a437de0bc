import { useId } from 'react';
import type { DatasetFormState } from './dataset-text-field.tsx';

/** The form's choice of source: picked files or a URL, or an API. */
export function SourceChoice({
  form,
  team,
}: {
  form: DatasetFormState;
  /** A team workspace's dataset: from a URL or an API, never picked files. */
  team: boolean;
}) {
  const name = useId();
  const choices = [
    { value: 'files-or-url', label: team ? 'A URL' : 'Files or a URL' },
    { value: 'legiscan', label: 'LegiScan API' },
    { value: 'openstates', label: 'Open States API' },
    { value: 'govinfo', label: 'GovInfo bulk data' },
    { value: 'congress', label: 'Congress.gov API' },
  ] as const;
  return (
    <fieldset className="source-choice">
      <legend>Source</legend>
      {choices.map((choice) => (
        <label key={choice.value} className="source-choice-option">
          <input
            type="radio"
            name={name}
            value={choice.value}
            checked={form.sourceKind === choice.value}
            onChange={() => {
              form.set('sourceKind', choice.value);
            }}
          />
          {choice.label}
        </label>
      ))}
    </fieldset>
  );
}
