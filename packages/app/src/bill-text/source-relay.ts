import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import type { SourceRequest } from '../import-worker/source-download.ts';

// The Docket server's source relay (POST /api/sources/fetch), asked from the page: "Get text"
// runs on the page, the import worker asks it the same way from the worker.

export function relaySourceRequest(request: SourceRequest): Promise<Response> {
  return fetch('/api/sources/fetch', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) },
    body: JSON.stringify({
      url: request.url,
      ...(request.etag === null ? {} : { etag: request.etag }),
      ...(request.lastModified === null ? {} : { lastModified: request.lastModified }),
    }),
  });
}
