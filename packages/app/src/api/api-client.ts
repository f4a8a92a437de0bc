import type { ApiError } from '@docket/protocol/api-error';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import type { z } from 'zod';
import type { Platform } from '../platform/platform.ts';

/** A failed call to Docket's own API, with a message fit to show the user. */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string | null,
    /** How long the server asked to wait before trying again (Retry-After), when it did. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

const UNREACHABLE_MESSAGE =
  'The Docket server cannot be reached. Check your connection and try again.';

export interface ApiRequest<T> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: `/api/${string}`;
  body?: unknown;
  response: z.ZodType<T>;
}

/** A call whose body and answer are raw bytes (sync's encrypted blobs). */
export interface ApiBytesRequest {
  /** HEAD asks whether something is there: its answer is empty bytes, or null (404). */
  method: 'GET' | 'HEAD' | 'PUT';
  path: `/api/${string}`;
  body?: Uint8Array<ArrayBuffer>;
}

export interface ApiClient {
  <T>(request: ApiRequest<T>): Promise<T>;
  /** The answer's bytes; null when the server has nothing there (404). */
  bytes(request: ApiBytesRequest): Promise<Uint8Array<ArrayBuffer> | null>;
}

/** Throws the error a failed answer means, with the server's own message when it sent one. */
function failure(answer: Response, payload: unknown): ApiRequestError {
  if (isApiError(payload)) {
    return new ApiRequestError(
      payload.message,
      answer.status,
      payload.error,
      retryAfterMs(answer.headers.get('retry-after')),
    );
  }
  if (answer.status === 401) {
    return new ApiRequestError('You are signed out. Sign in again.', 401, null);
  }
  return new ApiRequestError(
    answer.status >= 500 ? UNREACHABLE_MESSAGE : `The request failed (${answer.status}).`,
    answer.status,
    null,
  );
}

/**
 * Whether an error answer is in the API's error shape (protocol's apiErrorSchema), checked by
 * hand: this client is in the first screen's script, which zod would slow (bench/README.md).
 */
function isApiError(payload: unknown): payload is ApiError {
  if (typeof payload !== 'object' || payload === null) return false;
  const { error, message } = payload as { error?: unknown; message?: unknown };
  return typeof error === 'string' && typeof message === 'string';
}

/** Retry-After in seconds (the server sends no dates); null when absent or unreadable. */
function retryAfterMs(header: string | null): number | null {
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Number(header.trim()) * 1000;
}

/**
 * Calls Docket's own API (not /api/auth): every call names the protocol version, carries the
 * platform's credentials, and has its answer parsed before the app trusts it.
 */
export function createApiClient(platform: Platform, fetchImpl: typeof fetch = fetch): ApiClient {
  const send = async (
    method: string,
    path: string,
    body: { content: BodyInit; type: string } | undefined,
  ): Promise<Response> => {
    const headers = new Headers({ [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) });
    const token = await platform.auth.token();
    if (token) headers.set('authorization', `Bearer ${token}`);
    if (body !== undefined) headers.set('content-type', body.type);
    try {
      return await fetchImpl(`${platform.serverOrigin}${path}`, {
        method,
        headers,
        credentials: platform.serverOrigin ? 'include' : 'same-origin',
        ...(body === undefined ? {} : { body: body.content }),
      });
    } catch {
      throw new ApiRequestError(UNREACHABLE_MESSAGE, null, null);
    }
  };

  const json = async <T>({ method, path, body, response }: ApiRequest<T>): Promise<T> => {
    const answer = await send(
      method,
      path,
      body === undefined ? undefined : { content: JSON.stringify(body), type: 'application/json' },
    );
    const payload: unknown = await answer.json().catch(() => undefined);
    if (!answer.ok) throw failure(answer, payload);
    const parsed = response.safeParse(payload);
    if (!parsed.success) {
      throw new ApiRequestError(
        'The server sent an answer Docket does not understand.',
        answer.status,
        null,
      );
    }
    return parsed.data;
  };

  const bytes = async ({
    method,
    path,
    body,
  }: ApiBytesRequest): Promise<Uint8Array<ArrayBuffer> | null> => {
    const answer = await send(
      method,
      path,
      body === undefined ? undefined : { content: body, type: 'application/octet-stream' },
    );
    if (answer.status === 404 && method !== 'PUT') return null;
    if (!answer.ok) throw failure(answer, await answer.json().catch(() => undefined));
    return new Uint8Array(await answer.arrayBuffer());
  };

  return Object.assign(json, { bytes });
}
