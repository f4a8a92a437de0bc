import { CapacitorHttp } from '@capacitor/core';
import { decodeBase64 } from '@docket/core/encoding';
import type { SourceAnswer } from './platform.ts';
import { withoutAddressSecrets } from '../error-reporting/secret-scrub.ts';

// Sources fetched by the native shells' own HTTP (Capacitor's, on the page: the import worker
// asks through import-jobs-client.ts), so a site that sends no CORS headers is read directly and
// the Docket server's relay is not needed. The body comes across the bridge as base64.

const CONNECT_TIMEOUT_MS = 30_000;
const READ_TIMEOUT_MS = 120_000;

export async function nativeSourceFetch(
  url: string,
  headers: Record<string, string>,
): Promise<SourceAnswer> {
  let response;
  try {
    response = await CapacitorHttp.get({
      url,
      headers,
      responseType: 'arraybuffer',
      connectTimeout: CONNECT_TIMEOUT_MS,
      readTimeout: READ_TIMEOUT_MS,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // Never the query string: an API's (LegiScan's) carries the user's key.
    throw new Error(
      withoutAddressSecrets(
        `Could not download ${url}: the site could not be reached (${reason}).`,
      ),
    );
  }
  const data: unknown = response.data;
  let body: Uint8Array<ArrayBuffer> | null = null;
  if (typeof data === 'string' && data !== '') {
    const bytes = decodeBase64(data);
    if (bytes === null) {
      throw new Error(withoutAddressSecrets(`Could not download ${url}: the answer was garbled.`));
    }
    body = new Uint8Array(bytes);
  }
  return {
    status: response.status,
    statusText: '',
    headers: Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]),
    ),
    body,
  };
}
