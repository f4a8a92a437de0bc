import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import type { SourceRequest } from './source-download.ts';
import { stallGuarded } from './stall-guard.ts';

// The Docket server's source relay (POST /api/sources/fetch), with the signed-in user's cookie:
// what the import worker (and the service worker's background refresh), "Get text" and the
// add-dataset form's list of sessions ask when a source refuses the browser (CORS). The kept
// validators, an API key the source takes as X-API-Key and the Accept it needs go with it. A relay
// that sends nothing for 90 s is given up (stall-guard.ts).

export function relaySourceRequest(request: SourceRequest): Promise<Response> {
  return stallGuarded((signal) => relayOnce(request, signal));
}

function relayOnce(request: SourceRequest, signal: AbortSignal): Promise<Response> {
  return fetch('/api/sources/fetch', {
    method: 'POST',
    signal,
    credentials: 'same-origin',
    headers: {
      'content-type': 'application/json',
      [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
    },
    body: JSON.stringify({
      url: request.url,
      ...(request.etag === null ? {} : { etag: request.etag }),
      ...(request.lastModified === null ? {} : { lastModified: request.lastModified }),
      ...(request.apiKeyHeader === undefined ? {} : { apiKeyHeader: request.apiKeyHeader }),
      ...(request.accept === undefined ? {} : { accept: request.accept }),
    }),
  });
}
