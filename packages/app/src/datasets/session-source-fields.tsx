import { ApiKeyState } from './api-key-state.tsx';
import {
  DatasetTextField,
  type DatasetFormState,
  type DatasetTextInput,
  type ErrorIdOf,
} from './dataset-text-field.tsx';
import { type SessionSource, SessionPicker } from './session-picker.tsx';

/** What differs between LegiScan's and Open States' fieldsets: their words and their fields. */
interface SessionSourceParts {
  legend: string;
  /** The state (LegiScan) or jurisdiction (Open States) whose sessions are listed. */
  place: { field: 'legiscanState' | 'openstatesJurisdiction' } & DatasetTextInput;
  /** The session's id, picked from the list or typed by hand. */
  session: { field: 'legiscanSession' | 'openstatesSession' } & DatasetTextInput;
}

const parts: Record<SessionSource, SessionSourceParts> = {
  legiscan: {
    legend: 'LegiScan dataset',
    place: {
      field: 'legiscanState',
      label: 'State',
      maxlength: 2,
      autocapitalize: 'characters',
      autocomplete: 'off',
      helperText: 'Its postal code, such as "AK", or "US" for Congress.',
    },
    session: {
      field: 'legiscanSession',
      label: 'LegiScan session ID',
      inputmode: 'numeric',
      maxlength: 9,
      autocomplete: 'off',
      helperText:
        "The session_id LegiScan's list of datasets gives the session, such as 1843. Refresh downloads the dataset again when LegiScan rebuilt it.",
    },
  },
  openstates: {
    legend: 'Open States dataset',
    place: {
      field: 'openstatesJurisdiction',
      label: 'Open States jurisdiction',
      maxlength: 200,
      autocomplete: 'off',
      helperText: 'As Open States names it: "Alaska", "ak" or an ocd-jurisdiction id.',
    },
    session: {
      field: 'openstatesSession',
      label: 'Open States session',
      maxlength: 100,
      autocomplete: 'off',
      helperText:
        'Its identifier in Open States, such as "2023" or "33". Refresh reads only the bills updated since the last one.',
    },
  },
};

/**
 * A dataset of LegiScan's or Open States' API: the state or jurisdiction, its session (picked
 * from the source's list, or typed) and whether the key is saved.
 */
export function SessionSourceFields({
  source,
  form,
  errorId,
}: {
  source: SessionSource;
  form: DatasetFormState;
  errorId: ErrorIdOf;
}) {
  const { legend, place, session } = parts[source];
  const { field: placeField, ...placeInput } = place;
  const { field: sessionField, ...sessionInput } = session;
  return (
    <fieldset>
      <legend>{legend}</legend>
      <DatasetTextField
        form={form}
        field={placeField}
        errorId={errorId(placeField)}
        {...placeInput}
      />
      <SessionPicker
        source={source}
        place={form.text[placeField]}
        value={form.text[sessionField]}
        onPick={(id) => {
          form.set(sessionField, id);
        }}
        error={form.errors[sessionField]}
        errorId={errorId(sessionField)}
        manualField={
          <DatasetTextField
            form={form}
            field={sessionField}
            errorId={errorId(sessionField)}
            {...sessionInput}
          />
        }
      />
      <ApiKeyState source={source} />
    </fieldset>
  );
}
