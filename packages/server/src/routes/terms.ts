import {
  acceptTermsRequestSchema,
  TERMS_VERSION,
  termsAcceptanceResponseSchema,
  type TermsAcceptanceResponse,
} from '@docket/protocol/terms';
import type { FastifyInstance } from 'fastify';
import { signedInUserOf } from '../auth/require-user.ts';
import { ApiHttpError } from '../http/api-error.ts';
import { parseRequest } from '../http/parse-request.ts';
import type { TermsAcceptanceRecord, TermsRepository } from '../repositories/terms-repository.ts';

export function termsRoutes(app: FastifyInstance, terms: TermsRepository): void {
  app.get('/api/terms/acceptance', { onRequest: app.requireUser }, async (request) => {
    const user = signedInUserOf(request);
    return toResponse(await terms.findLatest(user.id));
  });

  app.post('/api/terms/acceptance', { onRequest: app.requireUser }, async (request) => {
    const user = signedInUserOf(request);
    const { version } = parseRequest(acceptTermsRequestSchema, request.body, 'body');
    if (version !== TERMS_VERSION) {
      // Accepting a version the user was never shown would be worthless as consent.
      throw new ApiHttpError(
        400,
        'unknown-terms-version',
        `Version "${version}" is not the current terms of service; the current version is "${TERMS_VERSION}".`,
      );
    }
    return toResponse(await terms.accept(user.id, version));
  });
}

/**
 * `accepted` is the user's latest acceptance of any version; the app compares its version with
 * `currentVersion` to decide whether to ask again.
 */
function toResponse(record: TermsAcceptanceRecord | null): TermsAcceptanceResponse {
  return termsAcceptanceResponseSchema.parse({
    currentVersion: TERMS_VERSION,
    accepted:
      record === null
        ? null
        : { version: record.version, acceptedAt: record.acceptedAt.toISOString() },
  });
}
