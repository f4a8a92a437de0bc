import { z } from 'zod';
import { apiErrorSchema } from './api-error.ts';

// The source relay: where a browser cannot fetch a dataset's source itself (no CORS), the Docket
// server fetches it for a signed-in user and hands the bytes back unchanged. The server sees the
// source's URL (and the API key sent with it), never the user's data.
//
// POST /api/sources/fetch   body: SourceFetchRequest
//   200  the source's body as application/octet-stream, with the X-Source-* headers below
//   304  the source said "not modified" to the etag / lastModified sent; same headers, no body
//   400  `invalid-url`          not an http(s) URL
//   403  `host-not-allowed`     not on the server's allowlist, or it resolves to a loopback,
//                               private or link-local address (SOURCE_HOSTS can name it)
//   413  `source-too-large`     the answer is larger than the server's cap
//   429  `rate-limited`         this account asked the relay too often (Retry-After)
//   429  `source-rate-limited`  the source said 429 (its Retry-After passed on)
//   502  `source-status`        the source answered another non-2xx status (`status` says which)
//   502  `source-unreachable`   DNS, connection or TLS failure, or an answer cut short
//   503  `relay-busy`           the relay's temporary space is full (Retry-After)
//   504  `source-timeout`       the whole answer took longer than the server's time cap

export const sourceRelayPaths = { fetch: '/api/sources/fetch' } as const;

/** What an HTTP header value may hold (no line breaks): these fields become headers. */
const headerValue = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[\t\x20-\x7e\x80-\xff]*$/, 'must not hold line breaks or control characters');

export const sourceFetchRequestSchema = z.strictObject({
  url: z.string().max(8192),
  /** The ETag of the copy the device has; sent as If-None-Match. */
  etag: headerValue(1024).optional(),
  /** The Last-Modified of the copy the device has; sent as If-Modified-Since. */
  lastModified: headerValue(256).optional(),
  /** Sent to the source as X-API-Key (Open States v3); never logged. */
  apiKeyHeader: headerValue(1024).optional(),
  /** Sent to the source as Accept (GovInfo's bulk data listings answer 406 to any other); else
   *  the relay sends any. */
  accept: headerValue(200).optional(),
});
export type SourceFetchRequest = z.infer<typeof sourceFetchRequestSchema>;

/** Headers of a 200 or 304 answer of the relay, lower-case as Node and fetch give them. */
export const sourceRelayHeaders = {
  etag: 'x-source-etag',
  lastModified: 'x-source-last-modified',
  contentType: 'x-source-content-type',
  /** The final URL after redirects. */
  url: 'x-source-url',
} as const;

export const sourceRelayErrors = [
  'invalid-url',
  'host-not-allowed',
  'source-too-large',
  'source-rate-limited',
  'source-status',
  'source-unreachable',
  'relay-busy',
  'source-timeout',
] as const;

/** A refused relay request: `status` is the source's own HTTP status on `source-status`. */
export const sourceFetchErrorSchema = apiErrorSchema.extend({
  status: z.number().int().optional(),
});
export type SourceFetchError = z.infer<typeof sourceFetchErrorSchema>;
