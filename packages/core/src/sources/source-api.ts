// What the API sources (LegiScan, Open States, congress.gov; GovInfo's bulk data) share: a 429's
// Retry-After read as seconds, the longest such wait a refresh sits through, and the words for
// one that is not waited out.

/** The longest wait for a 429's Retry-After that a refresh sits through before trying again. */
export const SOURCE_RETRY_WAIT_MAX_SECONDS = 30;

/** Seconds a Retry-After header asks for (delta seconds or an HTTP date), null when unreadable. */
export function retryAfterSeconds(header: string | null, nowMs: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/** What a 429 that is not waited through says, the source named as the sentence's subject. */
export function rateLimitedMessage(source: string, seconds: number | null): string {
  const when =
    seconds === null
      ? 'later'
      : seconds < 120
        ? `in ${seconds} s`
        : `in ${Math.ceil(seconds / 60)} minutes`;
  return `${source} is limiting requests from this key (429 Too Many Requests); refresh again ${when}.`;
}
