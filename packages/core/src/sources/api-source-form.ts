// The add-dataset form's fields for a dataset from an API: LegiScan's state and session_id, Open
// States' jurisdiction and session, the Congress and bill type of GovInfo's bulk data and of the
// congress.gov API. Apart from dataset-commands.ts's form rules, which the app's
// first screens load, so that these words load only with the form.

/** Where the form says the bills come from. */
export type DatasetSourceKind = 'files-or-url' | 'legiscan' | 'openstates' | 'govinfo' | 'congress';

/** The bill types GovInfo's folders and the congress.gov API name (lower case). */
const BILL_TYPES = ['hr', 's', 'hjres', 'sjres', 'hconres', 'sconres', 'hres', 'sres'];

export interface ApiSourceFormValues {
  sourceKind: DatasetSourceKind;
  /** LegiScan's API: the state (postal code) and the session's `session_id`. */
  legiscanState: string;
  legiscanSession: string;
  /** Open States API v3: the jurisdiction (name, abbreviation or ocd id) and the session. */
  openstatesJurisdiction: string;
  openstatesSession: string;
  /** GovInfo's bulk data and the congress.gov API: the Congress (such as 118) and bill type. */
  congress: string;
  billType: string;
}

export type ApiSourceFormField =
  | 'legiscanState'
  | 'legiscanSession'
  | 'openstatesJurisdiction'
  | 'openstatesSession'
  | 'congress'
  | 'billType';
export type ApiSourceFormErrors = Partial<Record<ApiSourceFormField, string>>;

/** The longest Open States session name the form takes. */
const SESSION_MAX = 100;

/** LegiScan's `session_id` as typed, or null when it is not one. */
export function parseLegiscanSessionId(typed: string): number | null {
  const text = typed.trim();
  if (!/^\d{1,9}$/.test(text)) return null;
  const id = Number(text);
  return id > 0 ? id : null;
}

/** A Congress as typed (93rd on, as GovInfo and congress.gov hold them), or null. */
export function parseCongress(typed: string): number | null {
  const text = typed.trim().replace(/(st|nd|rd|th)$/i, '');
  if (!/^\d{2,3}$/.test(text)) return null;
  const congress = Number(text);
  return congress >= 93 && congress <= 200 ? congress : null;
}

/** A bill type as typed ("HR", "H.R.", "hjres"), as the sources spell it, or null. */
export function parseBillType(typed: string): string | null {
  const type = typed.trim().toLowerCase().replace(/[.\s]/g, '');
  return BILL_TYPES.includes(type) ? type : null;
}

/** The messages for the API's fields, by field; empty for files or a URL, or when all is well. */
export function validateApiSourceForm(values: ApiSourceFormValues): ApiSourceFormErrors {
  const errors: ApiSourceFormErrors = {};
  if (values.sourceKind === 'legiscan') {
    if (!/^[A-Z]{2}$/.test(values.legiscanState.trim().toUpperCase())) {
      errors.legiscanState =
        'Enter the state as LegiScan names it: a postal code such as "AK", or "US" for Congress.';
    }
    if (parseLegiscanSessionId(values.legiscanSession) === null) {
      errors.legiscanSession =
        "Pick the session, or enter LegiScan's session ID: a number such as 1843.";
    }
  } else if (values.sourceKind === 'govinfo' || values.sourceKind === 'congress') {
    if (parseCongress(values.congress) === null) {
      errors.congress = 'Enter the Congress as a number, such as 118 (the 93rd on).';
    }
    if (parseBillType(values.billType) === null) {
      errors.billType = 'Pick the bill type: hr, s, hjres, sjres, hconres, sconres, hres or sres.';
    }
  } else if (values.sourceKind === 'openstates') {
    const jurisdiction = values.openstatesJurisdiction.trim();
    const session = values.openstatesSession.trim();
    if (jurisdiction === '' || jurisdiction.length > 200) {
      errors.openstatesJurisdiction =
        'Enter the jurisdiction as Open States names it: "Alaska", "ak" or its ocd-jurisdiction id.';
    }
    if (session === '' || session.length > SESSION_MAX) {
      errors.openstatesSession =
        'Pick the session, or enter it as Open States names it, such as "2023" or "33".';
    }
  }
  return errors;
}
