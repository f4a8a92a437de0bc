import { openBound, sealBound, type SealBinding } from './sync-crypto.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from './web-crypto.ts';

// An owner's record of a member's public key as they confirmed it (issue 39): when the owner
// compares fingerprints and confirms, their device seals the member's public key under the
// owner's own cloud data key, bound to the workspace, the member and the owner. The server keeps
// the sealed bytes beside the membership and hands them back to that owner only.
//
// Before a rotation seals a new workspace key to every member who stays, the owner's device
// opens each record and compares it with the key the server lists now. The server can neither
// read nor make a record (it holds no cloud data key), so a key it swapped after confirmation is
// caught before anything is sealed to it; a record it changed, moved to another member or
// workspace, or dropped, does not pass either.

function confirmationBinding(context: KeyConfirmationContext): SealBinding {
  return [
    'docket-key-confirmation',
    context.workspaceId,
    context.memberUserId,
    context.confirmerUserId,
  ];
}

/** Whose key, in which workspace, confirmed by whom. */
export interface KeyConfirmationContext {
  readonly workspaceId: string;
  readonly memberUserId: string;
  /** The owner who compared the fingerprints, whose cloud data key seals the record. */
  readonly confirmerUserId: string;
}

/**
 * How a member's listed key stands against my record: `matches`; `differs` (I confirmed another
 * key: the listed one was changed); `unreadable` (the record does not open with my key: changed,
 * moved, or sealed before my cloud password was reset); `none` (I never confirmed this member).
 */
export type KeyConfirmationCheck = 'matches' | 'differs' | 'unreadable' | 'none';

/** Seals the public key the owner confirmed, under the owner's cloud data key. */
export function sealKeyConfirmation(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
  context: KeyConfirmationContext,
  confirmedPublicKey: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  return sealBound(crypto, dataKey, confirmedPublicKey, confirmationBinding(context));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

/** Compares the key listed now with the one my record says I confirmed. */
export async function checkKeyConfirmation(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
  context: KeyConfirmationContext,
  sealed: Uint8Array | null,
  listedPublicKey: Uint8Array,
): Promise<KeyConfirmationCheck> {
  if (sealed === null) return 'none';
  let confirmed: Uint8Array;
  try {
    confirmed = await openBound(crypto, dataKey, sealed, confirmationBinding(context));
  } catch {
    return 'unreadable';
  }
  return sameBytes(confirmed, listedPublicKey) ? 'matches' : 'differs';
}
