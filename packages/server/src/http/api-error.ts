import type { ApiError } from '@docket/protocol/api-error';
import type { FastifyReply } from 'fastify';

/** An error a route throws on purpose; the global error handler answers it as-is. */
export class ApiHttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiHttpError';
  }
}

export function sendApiError(
  reply: FastifyReply,
  statusCode: number,
  error: string,
  message: string,
): FastifyReply {
  const body: ApiError = { error, message };
  return reply.code(statusCode).type('application/json; charset=utf-8').send(body);
}
