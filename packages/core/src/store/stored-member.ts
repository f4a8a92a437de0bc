import { z } from 'zod';
import { memberSchema } from '../bills/member-votes.ts';

/**
 * Who a member in a bill's votes is (member-votes.ts), kept once however many roll calls the
 * member is on, with the datasets that brought them: derived like bills, never synced, and gone
 * with the last of those datasets.
 */
export const storedMemberSchema = memberSchema.extend({
  datasetIds: z.array(z.string().min(1).max(200)).min(1),
});
export type StoredMember = z.infer<typeof storedMemberSchema>;
