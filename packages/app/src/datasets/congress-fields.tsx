import { useId } from 'react';
import { ApiKeyState } from './api-key-state.tsx';
import {
  DatasetTextField,
  type DatasetFormState,
  type ErrorIdOf,
  FieldError,
} from './dataset-text-field.tsx';

/** The Congress and bill type of a GovInfo or congress.gov dataset. */
export function CongressFields({ form, errorId }: { form: DatasetFormState; errorId: ErrorIdOf }) {
  const govinfo = form.sourceKind === 'govinfo';
  return (
    <fieldset>
      <legend>{govinfo ? 'GovInfo BILLSTATUS files' : 'Congress.gov bills'}</legend>
      <DatasetTextField
        form={form}
        field="congress"
        errorId={errorId('congress')}
        label="Congress"
        inputmode="numeric"
        maxlength={5}
        autocomplete="off"
        helperText="Its number, such as 118."
      />
      <BillTypeField form={form} errorId={errorId('billType')} />
      <p className="field-hint">
        {govinfo
          ? 'Refresh reads only the files GovInfo lists as changed; no key is needed.'
          : 'Refresh reads only the bills updated since the last one.'}
      </p>
      {govinfo ? null : <ApiKeyState source="congress" />}
    </fieldset>
  );
}

/** The bill types of Congress, as GovInfo and congress.gov name them in their paths. */
const billTypes = [
  ['hr', 'House bills (hr)'],
  ['s', 'Senate bills (s)'],
  ['hjres', 'House joint resolutions (hjres)'],
  ['sjres', 'Senate joint resolutions (sjres)'],
  ['hconres', 'House concurrent resolutions (hconres)'],
  ['sconres', 'Senate concurrent resolutions (sconres)'],
  ['hres', 'House resolutions (hres)'],
  ['sres', 'Senate resolutions (sres)'],
] as const;

/**
 * The bill type, picked from the eight Congress has rather than typed. A value the list does not
 * hold (a draft or a dataset saved before the list) is shown as it is, so nothing is lost unseen,
 * and the form's own check says what is wrong with it.
 */
function BillTypeField({ form, errorId }: { form: DatasetFormState; errorId: string }) {
  const id = useId();
  const value = form.text.billType;
  const error = form.errors.billType;
  const known = billTypes.some(([type]) => type === value.trim().toLowerCase());
  return (
    <div className="form-field">
      <label htmlFor={id}>Bill type</label>
      <select
        id={id}
        value={known ? value.trim().toLowerCase() : value}
        aria-describedby={error === undefined ? undefined : errorId}
        aria-invalid={error === undefined ? undefined : true}
        onChange={(event) => {
          form.set('billType', event.target.value);
        }}
      >
        <option value="">Pick a bill type</option>
        {known || value === '' ? null : <option value={value}>{value}</option>}
        {billTypes.map(([type, words]) => (
          <option key={type} value={type}>
            {words}
          </option>
        ))}
      </select>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
