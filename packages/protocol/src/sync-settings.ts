import { z } from 'zod';
import { base64Schema, epochSchema, seqnoSchema } from './sync-wire.ts';

// A user's sync settings: everything a new device needs to join, and nothing that would let the
// server read the data. The server keeps them as it gets them; it interprets only `version`
// (compare-and-set) and `keyEpoch` (which pushes to accept).

/** How the key that wraps the data key is derived from the cloud password. */
export const keyDerivationSchema = z.strictObject({
  algorithm: z.literal('argon2id'),
  /** Random, 16 to 64 bytes, base64. */
  salt: base64Schema.min(24).max(88),
  memoryKiB: z.number().int().min(8).max(4_194_304),
  iterations: z.number().int().min(1).max(64),
  parallelism: z.number().int().min(1).max(16),
});
export type KeyDerivation = z.infer<typeof keyDerivationSchema>;

const settingsFields = {
  /**
   * A verifier of the cloud password: an Argon2id hash in PHC string form
   * (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) with its own salt, never the key-derivation salt.
   * Its presence means a cloud password exists. Only the PHC string's characters (letters,
   * digits, `$ = , + / . -`): a NUL byte, a lone surrogate or anything else is refused.
   */
  passwordHash: z
    .string()
    .min(1)
    .max(512)
    .regex(/^[A-Za-z0-9$=,+/.-]+$/, 'passwordHash must be a PHC string ($argon2id$v=19$m=…)')
    .nullable(),
  /** How the wrapping key is derived; null while there is no cloud password. */
  keyDerivation: keyDerivationSchema.nullable(),
  /** The random data key, encrypted with the password-derived key (base64); null without a password. */
  wrappedDataKey: base64Schema.min(1).max(1024).nullable(),
  /** The epoch of the current data key; a password reset moves it up by one or more. */
  keyEpoch: epochSchema,
};

/** GET /api/sync/settings, and the body of a successful PUT. */
export const syncSettingsSchema = z.object({
  ...settingsFields,
  /** Bumped by every write; 0 before the first. Writes are compare-and-set on it. */
  version: z.number().int().nonnegative(),
  /**
   * The last sequence number written before `keyEpoch` took effect: every change of the current
   * epoch has a greater one, so a device that reverts after a reset pulls from here.
   */
  epochStartSeqno: seqnoSchema,
  /** ISO 8601; null before the first write. */
  updatedAt: z.string().nullable(),
});
export type SyncSettings = z.infer<typeof syncSettingsSchema>;

/** The fields a client writes. A cloud password is all of them set, or none. */
export const syncSettingsWriteSchema = z.strictObject(settingsFields).refine(
  (settings) => {
    const present = [settings.passwordHash, settings.keyDerivation, settings.wrappedDataKey].filter(
      (value) => value !== null,
    ).length;
    return present === 0 || present === 3;
  },
  { message: 'passwordHash, keyDerivation and wrappedDataKey are set together or not at all' },
);
export type SyncSettingsWrite = z.infer<typeof syncSettingsWriteSchema>;

/**
 * PUT /api/sync/settings: written only if the stored version is still `expectedVersion`;
 * otherwise 409 with `syncSettingsConflictSchema`, and nothing changes.
 */
export const putSyncSettingsRequestSchema = z.strictObject({
  expectedVersion: z.number().int().nonnegative(),
  settings: syncSettingsWriteSchema,
});
export type PutSyncSettingsRequest = z.infer<typeof putSyncSettingsRequestSchema>;

/** The 409 body of a settings write that lost the race: the settings that won, to merge with. */
export const syncSettingsConflictSchema = z.object({
  error: z.literal('version-conflict'),
  message: z.string(),
  current: syncSettingsSchema,
});
export type SyncSettingsConflict = z.infer<typeof syncSettingsConflictSchema>;
