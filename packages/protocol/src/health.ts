import { z } from 'zod';

/** GET /api/health */
export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  protocolVersion: z.number().int(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
