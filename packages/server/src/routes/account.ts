import {
  accountUsageResponseSchema,
  type AccountUsageResponse,
} from '@docket/protocol/account-usage';
import type { FastifyInstance } from 'fastify';
import { signedInUserOf } from '../auth/require-user.ts';
import type { AccountQuotas } from '../config.ts';
import type { DocketDb } from '../db/database.ts';
import { readAccountSpaceUsed } from '../repositories/account-usage-repository.ts';

/** The signed-in user's own room on the server, so the app can show it before it runs out. */
export function accountRoutes(app: FastifyInstance, db: DocketDb, quotas: AccountQuotas): void {
  app.get('/api/account/usage', { onRequest: app.requireUser }, async (request) => {
    const user = signedInUserOf(request);
    const used = await readAccountSpaceUsed(db, user.id);
    const response: AccountUsageResponse = {
      blobs: { usedBytes: used.blobs, limitBytes: quotas.blobBytes },
      log: { usedBytes: used.log, limitBytes: quotas.logBytes },
      backups: { usedBytes: used.backups, limitBytes: quotas.backupBytes },
    };
    return accountUsageResponseSchema.parse(response);
  });
}
