import { Gunzip, gzipSync } from 'fflate';
import { z } from 'zod';
import {
  backupCountsSchema,
  BackupContentsError,
  parseBackupContents,
  type BackupContents,
  type BackupCounts,
} from './backup-contents.ts';
import { decodeBase64, encodeBase64 } from '../encoding/base64.ts';
import { jsonOrUndefined } from '../encoding/loose-json.ts';
import { openBound, sealBound } from '../crypto/sync-crypto.ts';
import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from '../crypto/web-crypto.ts';

// Sealing a backup for the server and opening it again. Same construction as sync's envelopes
// (sync-crypto.ts): AES-256-GCM with a fresh 12-byte nonce, a version byte in front, and
// associated data that binds the ciphertext to where it belongs — here the user, the backup id,
// the key epoch and which part it is (contents or metadata). A server that swaps two backups,
// hands one user's backup to another, or relabels its epoch gets an integrity failure, never a
// silently wrong restore. Contents are gzipped before they are sealed (JSON of bills shrinks
// five- to tenfold); opening caps what they may expand to, so a hostile file cannot exhaust
// memory.
//
// Public links (public-link-crypto.ts) use the same sealing under a random key of their own.

const SEAL_VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** Most bytes decrypted contents may expand to. */
export const MAX_BACKUP_PLAINTEXT_BYTES = 256 * 1024 * 1024;

export type BackupOpenErrorCode = 'tampered' | 'invalid' | 'too-large';

/** A backup that could not be opened: damaged, not meant for this key, or hostile. */
export class BackupOpenError extends Error {
  constructor(
    readonly code: BackupOpenErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BackupOpenError';
  }
}

/** What a sealed part is bound to. */
export type SealContext = readonly (string | number)[];

export function backupSealContext(
  part: 'contents' | 'metadata',
  context: { userId: string; backupId: string; epoch: number },
): SealContext {
  return ['docket-backup', part, context.userId, context.backupId, context.epoch];
}

/** Seals with the sync crypto's format (sync-crypto.ts `sealBound`), bound to `context`. */
export function sealBytes(
  crypto: WebCryptoPort,
  key: OpaqueCryptoKey,
  plaintext: Uint8Array,
  context: SealContext,
): Promise<Uint8Array> {
  return sealBound(crypto, key, plaintext, context);
}

export async function openBytes(
  crypto: WebCryptoPort,
  key: OpaqueCryptoKey,
  sealed: Uint8Array,
  context: SealContext,
): Promise<Uint8Array> {
  if (sealed.length < 1 + NONCE_BYTES + TAG_BYTES || sealed[0] !== SEAL_VERSION) {
    throw new BackupOpenError('invalid', 'This is not an encrypted Docket backup.');
  }
  try {
    return await openBound(crypto, key, sealed, context);
  } catch {
    throw new BackupOpenError(
      'tampered',
      'This backup failed its integrity check: it was changed, or it belongs elsewhere.',
    );
  }
}

/** A value as gzipped JSON: backup contents, or a public link's payload. */
export function packJson(value: unknown): Uint8Array {
  return gzipSync(encodeUtf8(JSON.stringify(value)), { level: 6 });
}

/** Contents as gzipped JSON. */
export function packContents(contents: BackupContents): Uint8Array {
  return packJson(contents);
}

/** Gzipped JSON back to a value still to be checked; refuses bombs and broken gzip. */
export function unpackJson(packed: Uint8Array, cap = MAX_BACKUP_PLAINTEXT_BYTES): unknown {
  const json = gunzipCapped(packed, cap);
  try {
    return JSON.parse(decodeUtf8(json));
  } catch {
    throw new BackupOpenError('invalid', 'This backup is damaged: its contents are not readable.');
  }
}

/** Gzipped JSON back to checked contents; refuses bombs, broken gzip and invalid rows. */
export function unpackContents(
  packed: Uint8Array,
  cap = MAX_BACKUP_PLAINTEXT_BYTES,
): BackupContents {
  return parseBackupContents(unpackJson(packed, cap));
}

function gunzipCapped(packed: Uint8Array, cap: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const progress = { ended: false };
  const gunzip = new Gunzip((chunk, final) => {
    total += chunk.length;
    if (total > cap) {
      throw new BackupOpenError('too-large', 'This backup expands to more than Docket can open.');
    }
    chunks.push(chunk);
    if (final) progress.ended = true;
  });
  try {
    gunzip.push(packed, true);
  } catch (error) {
    if (error instanceof BackupOpenError) throw error;
    throw new BackupOpenError('invalid', 'This backup is damaged: it does not decompress.');
  }
  if (!progress.ended) throw new BackupOpenError('invalid', 'This backup is cut short.');
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return joined;
}

/** What the list shows of a backup: sealed apart from the contents, small, read without them. */
export const backupMetadataSchema = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().max(5000),
  counts: backupCountsSchema,
  /**
   * The team workspace whose space it was made in (issue 39); absent: the personal space. Sealed
   * with the rest, so the server does not learn which of an account's backups are a team's.
   */
  workspaceId: z.uuid().optional(),
});
export interface BackupMetadata {
  readonly name: string;
  readonly description: string;
  readonly counts: BackupCounts;
  readonly workspaceId?: string | undefined;
}

export interface BackupKeyContext {
  readonly userId: string;
  readonly backupId: string;
  readonly epoch: number;
}

/** Seals contents and metadata for the server: both as base64, as they travel. */
export async function sealBackup(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
  contents: BackupContents,
  metadata: BackupMetadata,
  context: BackupKeyContext,
): Promise<{ ciphertext: string; metadata: string }> {
  const checked = backupMetadataSchema.parse(metadata);
  const [ciphertext, sealedMetadata] = await Promise.all([
    sealBytes(crypto, dataKey, packContents(contents), backupSealContext('contents', context)),
    sealBackupMetadata(crypto, dataKey, checked, context),
  ]);
  return { ciphertext: encodeBase64(ciphertext), metadata: sealedMetadata };
}

/** Seals only the name, description and counts (a rename), as base64. */
export async function sealBackupMetadata(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
  metadata: BackupMetadata,
  context: BackupKeyContext,
): Promise<string> {
  const checked = backupMetadataSchema.parse(metadata);
  const sealed = await sealBytes(
    crypto,
    dataKey,
    encodeUtf8(JSON.stringify(checked)),
    backupSealContext('metadata', context),
  );
  return encodeBase64(sealed);
}

function fromBase64(value: string): Uint8Array {
  const bytes = decodeBase64(value);
  if (bytes === null) throw new BackupOpenError('invalid', 'This backup is not valid base64.');
  return bytes;
}

export async function openBackupMetadata(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
  sealed: string,
  context: BackupKeyContext,
): Promise<BackupMetadata> {
  const bytes = await openBytes(
    crypto,
    dataKey,
    fromBase64(sealed),
    backupSealContext('metadata', context),
  );
  const parsed = backupMetadataSchema.safeParse(jsonOrUndefined(bytes));
  if (!parsed.success) {
    throw new BackupOpenError('invalid', "This backup's name and description are damaged.");
  }
  return parsed.data;
}

export async function openBackupContents(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
  sealed: string,
  context: BackupKeyContext,
): Promise<BackupContents> {
  const bytes = await openBytes(
    crypto,
    dataKey,
    fromBase64(sealed),
    backupSealContext('contents', context),
  );
  return unpackContents(bytes);
}

/** A message for any error opening or reading a backup. */
export function backupErrorMessage(error: unknown): string {
  if (error instanceof BackupOpenError || error instanceof BackupContentsError) {
    return error.message;
  }
  return 'This backup could not be opened.';
}
