import { expect } from 'vitest';
import type { KdfParams } from '../crypto/sync-crypto.ts';
import { FullBackupError } from '../full-backups/full-backup-format.ts';

// What full backups' tests share: Argon2id with small parameters (the app uses DEFAULT_KDF),
// and the refusal a promise ends in.

export const quickKdf: KdfParams = {
  algorithm: 'argon2id',
  memoryKiB: 256,
  iterations: 1,
  parallelism: 1,
};

/** The FullBackupError the promise rejects with; fails the test when it resolves or throws another. */
export async function fullBackupRefusal(promise: Promise<unknown>): Promise<FullBackupError> {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(FullBackupError);
  return error as FullBackupError;
}
