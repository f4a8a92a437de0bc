import { MAX_ENVELOPE_BYTES, MAX_PUSH_ENVELOPES } from '@docket/protocol/sync-changes';
import { base64ByteLength } from '@docket/protocol/sync-wire';
import { ApiHttpError } from './api-error.ts';

/**
 * The schema refuses oversized batches too, but as `invalid-request`; these checks name the
 * limit that was passed, so a client knows to split the batch rather than fix a field.
 */
export function checkPushSizes(body: unknown): void {
  if (typeof body !== 'object' || body === null || !('envelopes' in body)) return;
  const envelopes: unknown = body.envelopes;
  if (!Array.isArray(envelopes)) return;
  if (envelopes.length > MAX_PUSH_ENVELOPES) {
    throw new ApiHttpError(
      413,
      'batch-too-large',
      `A push carries at most ${MAX_PUSH_ENVELOPES} envelopes; this one has ${envelopes.length}. Split it.`,
    );
  }
  for (const [index, envelope] of envelopes.entries()) {
    const ciphertext: unknown =
      typeof envelope === 'object' && envelope !== null && 'ciphertext' in envelope
        ? (envelope as { ciphertext: unknown }).ciphertext
        : undefined;
    if (typeof ciphertext !== 'string') continue;
    const bytes =
      ciphertext.length % 4 === 0
        ? base64ByteLength(ciphertext)
        : Math.floor((ciphertext.length * 3) / 4);
    if (bytes > MAX_ENVELOPE_BYTES) {
      throw new ApiHttpError(
        413,
        'envelope-too-large',
        `Envelope ${index} is larger than the ${MAX_ENVELOPE_BYTES}-byte limit of one change.`,
      );
    }
  }
}
