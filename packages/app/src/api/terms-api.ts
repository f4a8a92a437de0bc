import {
  acceptTermsRequestSchema,
  termsAcceptanceResponseSchema,
  type TermsAcceptanceResponse,
} from '@docket/protocol/terms';
import { z } from 'zod';
import type { ApiClient } from './api-client.ts';

export function fetchTermsAcceptance(api: ApiClient): Promise<TermsAcceptanceResponse> {
  return api({
    method: 'GET',
    path: '/api/terms/acceptance',
    response: termsAcceptanceResponseSchema,
  });
}

/**
 * Accepts a version, then reads the acceptance back so the screen shows what the server kept
 * (the POST answer's shape is not part of the protocol).
 */
export async function acceptTerms(
  api: ApiClient,
  version: string,
): Promise<TermsAcceptanceResponse> {
  const body = acceptTermsRequestSchema.parse({ version });
  await api({ method: 'POST', path: '/api/terms/acceptance', body, response: z.unknown() });
  return fetchTermsAcceptance(api);
}
