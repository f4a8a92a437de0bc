import { billListSearch } from '@docket/core/lists';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { ExportChoice, ExportScope } from './use-export-choice.ts';

// "Bills to export": the export screen's choice of bills as radio buttons, with the Tracked list
// it was opened from, a word on the notes on removed bills, and the tag when bills with a tag
// are chosen.

/** The export screen's "Bills to export" fieldset. */
export function ExportScopeFieldset({ choice }: { readonly choice: ExportChoice }) {
  const id = useId();
  const { scope, setScope, removed, listQuery, tags, chosenTag, setTagId } = choice;

  const scopeChoice = (value: ExportScope, label: string) => (
    <div className="choice">
      <input
        type="radio"
        id={`${id}-${value}`}
        name={`${id}-scope`}
        value={value}
        checked={scope === value}
        onChange={() => {
          setScope(value);
        }}
      />
      <label htmlFor={`${id}-${value}`}>{label}</label>
    </div>
  );

  return (
    <fieldset>
      <legend>Bills to export</legend>
      {listQuery !== null && (
        <>
          {scopeChoice('list', 'Bills in the Tracked list as filtered')}
          <p className="field-hint">
            With the search and filters you{' '}
            <Link to={`/tabs/tracked?${billListSearch(listQuery)}`}>had on the Tracked tab</Link>,
            in its order.
          </p>
        </>
      )}
      {scopeChoice('all', 'All bills')}
      {scopeChoice('tracked', 'Tracked bills')}
      {scopeChoice('tag', 'Bills with a tag')}
      {scopeChoice('removed', 'Notes on removed bills')}
      {removed && (
        <p className="field-hint">
          Your tags, positions, decisions and notes on bills no longer on this device, each with the
          bill&apos;s number and title: as JSON, and the notes as annotations.
        </p>
      )}
      {scope === 'tag' && (
        <div className="form-field">
          <label htmlFor={`${id}-tag`}>Tag</label>
          <select
            id={`${id}-tag`}
            value={chosenTag ?? ''}
            onChange={(event) => {
              setTagId(event.target.value);
            }}
          >
            <option value="">Choose a tag</option>
            {(tags ?? []).map((tag) => (
              <option key={tag.id} value={tag.id}>
                {tag.name}
              </option>
            ))}
          </select>
          {tags?.length === 0 && <p className="field-hint">You have no tags yet.</p>}
        </div>
      )}
    </fieldset>
  );
}
