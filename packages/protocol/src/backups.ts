import { z } from 'zod';
import { base64Schema, epochSchema } from './sync-wire.ts';

// Server-stored backups: a named snapshot of the user's own work, encrypted on the device with
// the sync data key. The server keeps ciphertext, sizes, the key epoch and when it was made;
// the name, description and counts travel encrypted too (`metadata`), so a list of backups
// tells the server nothing about what they hold.
//
// POST   /api/backups        create (the client picks the id: it is bound into the ciphertext)
// GET    /api/backups        the user's backups, newest first, without their contents
// GET    /api/backups/:id    one backup with its contents
// PUT    /api/backups/:id/metadata   a new name and description (sealed again, same epoch)
// DELETE /api/backups/:id    gone for good, with its public links
//
// Another user's backup is answered exactly like one that does not exist (404).

/** Largest encrypted contents of one backup, in bytes (`backup-too-large` beyond). */
export const MAX_BACKUP_BYTES = 16 * 1024 * 1024;

/** Largest encrypted metadata (name, description, counts), in bytes. */
export const MAX_BACKUP_METADATA_BYTES = 64 * 1024;

/** Most backups one user keeps on the server (`too-many-backups` beyond). */
export const MAX_BACKUPS_PER_USER = 200;

/** The JSON body of a create: both base64 texts and a little room for the rest. */
export const MAX_BACKUP_BODY_BYTES =
  Math.ceil(MAX_BACKUP_BYTES / 3) * 4 + Math.ceil(MAX_BACKUP_METADATA_BYTES / 3) * 4 + 4096;

/** A backup's id: a v4 UUID the client makes before it encrypts. */
export const backupIdSchema = z.uuid();

export const backupParamsSchema = z.strictObject({ id: backupIdSchema });

export const createBackupRequestSchema = z.strictObject({
  id: backupIdSchema,
  /** The key epoch the contents and metadata were sealed under. */
  epoch: epochSchema,
  metadata: base64Schema,
  ciphertext: base64Schema,
});
export type CreateBackupRequest = z.infer<typeof createBackupRequestSchema>;

export const updateBackupMetadataRequestSchema = z.strictObject({ metadata: base64Schema });
export type UpdateBackupMetadataRequest = z.infer<typeof updateBackupMetadataRequestSchema>;

/** What the server knows of a backup, and what a list shows before anything is decrypted. */
export const backupSummarySchema = z.object({
  id: backupIdSchema,
  epoch: epochSchema,
  metadata: base64Schema,
  /** Bytes of the encrypted contents. */
  size: z.number().int().nonnegative(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type BackupSummary = z.infer<typeof backupSummarySchema>;

export const backupListResponseSchema = z.object({ backups: z.array(backupSummarySchema) });
export type BackupListResponse = z.infer<typeof backupListResponseSchema>;

export const backupResponseSchema = backupSummarySchema.extend({ ciphertext: base64Schema });
export type BackupResponse = z.infer<typeof backupResponseSchema>;

export const backupPaths = {
  backups: '/api/backups',
} as const;
