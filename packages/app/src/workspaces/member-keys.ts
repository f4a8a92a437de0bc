import {
  createMemberKeys,
  unwrapMemberPrivateKey,
  WorkspaceKeyError,
  type MemberKeyPair,
  type OpaqueCryptoKey,
  type WebCryptoPort,
} from '@docket/core/crypto';
import { decodeBase64, encodeBase64 } from '@docket/core/encoding';
import type { MemberKeysResponse } from '@docket/protocol/workspaces';
import { ApiRequestError, type ApiClient } from '../api/api-client.ts';
import { fetchMemberKeys, putMemberKeys } from '../api/workspaces-api.ts';

// The account's member key pair (issue 39), as this device gets it: read from the server and
// opened with the cloud data key; made here, wrapped under that key and published when the
// account has none yet. Published once: another device that raced us to it wins, and its pair is
// the one opened. After a cloud-password reset the stored private key is sealed under a data key
// nobody holds: a device with the reset's key epoch makes a new pair and replaces the old one
// (the server drops what was sealed to the old public key; owners confirm the new one again).

/** Why this device cannot use the account's member keys (shown as it is). */
export class MemberKeysUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MemberKeysUnavailableError';
  }
}

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const bytes = decodeBase64(base64);
  if (bytes === null) {
    throw new MemberKeysUnavailableError('The server sent a member key Docket cannot read.');
  }
  return new Uint8Array(bytes);
}

/** The account's cloud data key on this device, and the key epoch it belongs to. */
export interface CloudDataKey {
  readonly dataKey: OpaqueCryptoKey;
  readonly keyEpoch: number;
}

/** A stored pair, opened; null when it does not open with this data key. */
async function opened(
  crypto: WebCryptoPort,
  stored: { publicKey: string; wrappedPrivateKey: string },
  dataKey: OpaqueCryptoKey,
  userId: string,
): Promise<MemberKeyPair | null> {
  try {
    return await unwrapMemberPrivateKey(
      crypto,
      {
        publicKey: bytesOf(stored.publicKey),
        wrappedPrivateKey: bytesOf(stored.wrappedPrivateKey),
      },
      dataKey,
      userId,
    );
  } catch (error) {
    if (error instanceof WorkspaceKeyError) return null;
    throw error;
  }
}

/** The account's pair, and whether this call replaced the one a reset left unopenable. */
export interface EnsuredMemberKeys {
  readonly pair: MemberKeyPair;
  readonly replaced: boolean;
}

type StoredPair = MemberKeysResponse & { publicKey: string; wrappedPrivateKey: string };

function isStored(keys: MemberKeysResponse): keys is StoredPair {
  return keys.publicKey !== null && keys.wrappedPrivateKey !== null;
}

/** Opens what the server holds now, or says plainly why this device cannot. */
async function openedOrUnavailable(
  crypto: WebCryptoPort,
  stored: MemberKeysResponse,
  cloud: CloudDataKey,
  userId: string,
): Promise<MemberKeyPair> {
  if (!isStored(stored)) {
    throw new MemberKeysUnavailableError('The server did not keep this account’s member key.');
  }
  const pair = await opened(crypto, stored, cloud.dataKey, userId);
  if (pair !== null) return pair;
  throw new MemberKeysUnavailableError(
    (stored.keyEpoch ?? 0) > cloud.keyEpoch
      ? 'Your workspace key was made under a newer cloud password than this device has: enter the current cloud password on this device.'
      : 'Your workspace key does not open with this cloud password’s key, though both are from the same reset: the server may have changed it. Workspaces cannot be used from this account until this is explained.',
  );
}

/**
 * Makes a pair under `cloud` and publishes it, replacing `replaces` when given; the pair the
 * server holds afterwards is the one opened (another device's, when it published or replaced
 * first).
 */
async function publishNew(
  api: ApiClient,
  crypto: WebCryptoPort,
  userId: string,
  cloud: CloudDataKey,
  replaces?: string,
): Promise<EnsuredMemberKeys> {
  const made = await createMemberKeys(crypto, cloud.dataKey, userId);
  let published: MemberKeysResponse;
  try {
    published = await putMemberKeys(api, {
      publicKey: encodeBase64(made.stored.publicKey),
      wrappedPrivateKey: encodeBase64(made.stored.wrappedPrivateKey),
      keyEpoch: cloud.keyEpoch,
      ...(replaces === undefined ? {} : { replaces }),
    });
  } catch (error) {
    // Another device of the account published (or replaced) first: that pair is the account's.
    if (!(error instanceof ApiRequestError) || error.code !== 'public-key-exists') throw error;
    published = await fetchMemberKeys(api);
  }
  if (published.publicKey === encodeBase64(made.stored.publicKey)) {
    return { pair: made.keys, replaced: replaces !== undefined };
  }
  return { pair: await openedOrUnavailable(crypto, published, cloud, userId), replaced: false };
}

/**
 * The account's member key pair: published first when it has none, replaced when the stored one
 * is sealed under an older key epoch than this device's (a cloud-password reset made it
 * unopenable). A pair from a newer epoch than this device's is left alone: this device has not
 * got the new cloud password yet.
 */
export async function ensureMemberKeys(
  api: ApiClient,
  crypto: WebCryptoPort,
  userId: string,
  cloud: CloudDataKey,
): Promise<EnsuredMemberKeys> {
  const current = await fetchMemberKeys(api);
  if (!isStored(current)) return publishNew(api, crypto, userId, cloud);
  const pair = await opened(crypto, current, cloud.dataKey, userId);
  if (pair !== null) return { pair, replaced: false };
  if ((current.keyEpoch ?? 0) < cloud.keyEpoch) {
    return publishNew(api, crypto, userId, cloud, current.publicKey);
  }
  return { pair: await openedOrUnavailable(crypto, current, cloud, userId), replaced: false };
}

/**
 * The account's pair, ensured once for a service and kept (asked again after a failure), and
 * whether it was this device that replaced it.
 */
export function memberKeysOnce(
  api: ApiClient,
  crypto: WebCryptoPort,
  userId: string,
  cloud: CloudDataKey,
): { readonly keys: () => Promise<MemberKeyPair>; readonly replacedHere: () => boolean } {
  let ensured: Promise<MemberKeyPair> | null = null;
  let replacedHere = false;
  return {
    keys: () => {
      ensured ??= ensureMemberKeys(api, crypto, userId, cloud).then(
        ({ pair, replaced }) => {
          replacedHere ||= replaced;
          return pair;
        },
        (error: unknown) => {
          ensured = null;
          throw error;
        },
      );
      return ensured;
    },
    replacedHere: () => replacedHere,
  };
}
