import { healthResponseSchema, type HealthResponse } from '@docket/protocol/health';
import { PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { sendApiError } from '../http/api-error.ts';

export function healthRoutes(app: FastifyInstance, database: Database): void {
  app.get('/api/health', async (request, reply) => {
    // A load balancer takes a process out of rotation on a non-2xx, so the check must fail
    // when the database does, not only when the process is gone.
    try {
      await database.db.execute(sql`select 1`);
    } catch (error) {
      request.log.error({ err: error }, 'Health check: database unreachable');
      return sendApiError(reply, 503, 'database-unavailable', 'The database does not answer.');
    }
    const body: HealthResponse = healthResponseSchema.parse({
      status: 'ok',
      database: database.kind,
      protocolVersion: PROTOCOL_VERSION,
    });
    return reply.header('cache-control', 'no-store').send(body);
  });
}
