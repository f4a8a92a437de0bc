import type { TermsAcceptanceResponse } from '@docket/protocol/terms';
import type { ApiClient } from '../api/api-client.ts';
import { fetchTermsAcceptance } from '../api/terms-api.ts';

/** What the prompt and the terms screen say, as a polite status, once the server recorded it. */
export const TERMS_ACCEPTED = 'Terms accepted.';

/**
 * Whether the user must accept the terms (again) before syncing: never accepted, or accepted
 * in a version other than the server's current one.
 */
export function needsAcceptance(acceptance: TermsAcceptanceResponse): boolean {
  return acceptance.accepted?.version !== acceptance.currentVersion;
}

/** The sync runner's question: has the signed-in user accepted the current terms? */
export async function termsAcceptedOnServer(api: ApiClient): Promise<boolean> {
  return !needsAcceptance(await fetchTermsAcceptance(api));
}
