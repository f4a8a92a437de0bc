import { apiErrorSchema } from '@docket/protocol/api-error';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import type { z } from 'zod';
import type { Platform } from '../platform/platform.ts';

/** A failed call to Docket's own API, with a message fit to show the user. */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string | null,
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

export type ApiClient = <T>(request: ApiRequest<T>) => Promise<T>;

/**
 * Calls Docket's own API (not /api/auth): every call names the protocol version, carries the
 * platform's credentials, and has its answer parsed before the app trusts it.
 */
export function createApiClient(platform: Platform, fetchImpl: typeof fetch = fetch): ApiClient {
  return async ({ method, path, body, response }) => {
    const headers = new Headers({ [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) });
    const token = await platform.auth.token();
    if (token) headers.set('authorization', `Bearer ${token}`);
    if (body !== undefined) headers.set('content-type', 'application/json');

    let answer: Response;
    try {
      answer = await fetchImpl(`${platform.serverOrigin}${path}`, {
        method,
        headers,
        credentials: platform.serverOrigin ? 'include' : 'same-origin',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new ApiRequestError(UNREACHABLE_MESSAGE, null, null);
    }

    const payload: unknown = await answer.json().catch(() => undefined);
    if (!answer.ok) {
      const error = apiErrorSchema.safeParse(payload);
      if (error.success)
        throw new ApiRequestError(error.data.message, answer.status, error.data.error);
      if (answer.status === 401) {
        throw new ApiRequestError('You are signed out. Sign in again.', 401, null);
      }
      throw new ApiRequestError(
        answer.status >= 500 ? UNREACHABLE_MESSAGE : `The request failed (${answer.status}).`,
        answer.status,
        null,
      );
    }
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
}
