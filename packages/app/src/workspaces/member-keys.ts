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
// the one opened.

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

async function opened(
  crypto: WebCryptoPort,
  stored: { publicKey: string; wrappedPrivateKey: string },
  dataKey: OpaqueCryptoKey,
  userId: string,
): Promise<MemberKeyPair> {
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
    if (error instanceof WorkspaceKeyError) {
      throw new MemberKeysUnavailableError(
        'Your workspace key does not open with this cloud password’s key: it was made before the ' +
          'cloud password was reset. Workspaces cannot be used from this account until it has a new key.',
      );
    }
    throw error;
  }
}

/** The account's member key pair, published first when it has none. */
export async function ensureMemberKeys(
  api: ApiClient,
  crypto: WebCryptoPort,
  userId: string,
  dataKey: OpaqueCryptoKey,
): Promise<MemberKeyPair> {
  const current = await fetchMemberKeys(api);
  if (current.publicKey !== null && current.wrappedPrivateKey !== null) {
    return opened(
      crypto,
      { publicKey: current.publicKey, wrappedPrivateKey: current.wrappedPrivateKey },
      dataKey,
      userId,
    );
  }
  const made = await createMemberKeys(crypto, dataKey, userId);
  let published: MemberKeysResponse;
  try {
    published = await putMemberKeys(api, {
      publicKey: encodeBase64(made.stored.publicKey),
      wrappedPrivateKey: encodeBase64(made.stored.wrappedPrivateKey),
    });
  } catch (error) {
    // Another device of the account published its pair first: that one is the account's.
    if (!(error instanceof ApiRequestError) || error.code !== 'public-key-exists') throw error;
    published = await fetchMemberKeys(api);
  }
  if (published.publicKey === encodeBase64(made.stored.publicKey)) return made.keys;
  if (published.publicKey === null || published.wrappedPrivateKey === null) {
    throw new MemberKeysUnavailableError('The server did not keep this account’s member key.');
  }
  return opened(
    crypto,
    { publicKey: published.publicKey, wrappedPrivateKey: published.wrappedPrivateKey },
    dataKey,
    userId,
  );
}
