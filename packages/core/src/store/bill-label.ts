import { z } from 'zod';

// What a row of the user's work on a bill keeps of the bill itself (local-records.ts).

/** The longest title a row of the user's work keeps of its bill (billLabel). */
export const BILL_LABEL_TITLE_MAX = 1_000;

/**
 * The bill's number and title as they were when the user's row (a tag on it, a position, a
 * decision, a note) was made, so the row still says which bill it is about once the bill is no
 * longer on the device (its dataset deleted, or never imported here): "Notes on removed bills".
 * Optional on the rows: rows, backups and exports from before it existed have none, and a tag put
 * on more bills at once than commands look up one by one gets none (the bill's other rows may
 * name it). It syncs as a field of its own; an older build's schema drops it.
 */
export const billLabelSchema = z.object({
  identifier: z.string().max(200),
  title: z.string().max(BILL_LABEL_TITLE_MAX),
});
export type BillLabel = z.infer<typeof billLabelSchema>;
