import { parseLinkPayload, type LinkPayload, type SharedLink } from './link-contents.ts';
import { BackupOpenError, openBytes, packJson, sealBytes, unpackJson } from './backup-crypto.ts';
import { decodeBase64, encodeBase64 } from '../encoding/base64.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from '../crypto/web-crypto.ts';

// A public link's encryption. Each link gets a fresh random AES-256-GCM key; its bytes travel
// only in the link's fragment (`#k=<base64url>`), which browsers never send to a server, so the
// server stores ciphertext it cannot open. The ciphertext is bound to the link's id, so a server
// cannot serve one link's contents under another's address.
//
// What a link shares is made by backups/link-contents.ts (makeLinkPayload): the backup's name
// and description, and only the rows the sharer chose, never the owner's sync clocks, dataset
// definitions or which datasets held each bill.

const KEY_BYTES = 32;

export function linkSealContext(linkId: string): readonly string[] {
  return ['docket-public-link', linkId];
}

function toBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function importKey(crypto: WebCryptoPort, bytes: Uint8Array): Promise<OpaqueCryptoKey> {
  return crypto.subtle.importKey('raw', new Uint8Array(bytes), { name: 'AES-GCM' }, false, [
    'encrypt',
    'decrypt',
  ]);
}

/** Seals a link's payload under a new key; returns the ciphertext and the key for the fragment. */
export async function sealLinkContents(
  crypto: WebCryptoPort,
  payload: LinkPayload,
  linkId: string,
): Promise<{ ciphertext: string; fragmentKey: string }> {
  const raw = crypto.getRandomValues(new Uint8Array(KEY_BYTES));
  const key = await importKey(crypto, raw);
  const sealed = await sealBytes(crypto, key, packJson(payload), linkSealContext(linkId));
  const fragmentKey = toBase64Url(raw);
  raw.fill(0);
  return { ciphertext: encodeBase64(sealed), fragmentKey };
}

/** The link people share. */
export function publicLinkUrl(origin: string, linkId: string, fragmentKey: string): string {
  return `${origin}/public-link/${encodeURIComponent(linkId)}#k=${fragmentKey}`;
}

/** The key of a link's fragment (`#k=…`), or null when there is none. */
export function fragmentKeyOf(hash: string): string | null {
  const parts = (hash.startsWith('#') ? hash.slice(1) : hash).split('&');
  const key = parts.find((part) => part.startsWith('k='))?.slice(2);
  return key === undefined || key === '' ? null : key;
}

export type LinkKeyProblem = 'missing-key' | 'bad-key';

export class PublicLinkKeyError extends Error {
  constructor(readonly problem: LinkKeyProblem) {
    super(
      problem === 'missing-key'
        ? 'This link is missing its key (the part after “#k=”). Ask for the whole link again.'
        : 'The key in this link is damaged. Ask for the whole link again.',
    );
    this.name = 'PublicLinkKeyError';
  }
}

/**
 * Opens a link's ciphertext with the key from its fragment; refuses a wrong or damaged key, and
 * says so when what the server sent was changed or cut short.
 */
export async function openLinkContents(
  crypto: WebCryptoPort,
  ciphertext: string,
  fragmentKey: string | null,
  linkId: string,
): Promise<SharedLink> {
  if (fragmentKey === null) throw new PublicLinkKeyError('missing-key');
  const raw = /^[A-Za-z0-9_-]{43}$/.test(fragmentKey) ? decodeBase64(fragmentKey) : null;
  if (raw?.length !== KEY_BYTES) throw new PublicLinkKeyError('bad-key');
  const key = await importKey(crypto, raw);
  const sealed = decodeBase64(ciphertext);
  if (sealed === null) throw new BackupOpenError('invalid', 'This link is damaged.');
  const bytes = await openBytes(crypto, key, sealed, linkSealContext(linkId)).catch(
    (error: unknown) => {
      if (error instanceof BackupOpenError && error.code === 'tampered') {
        throw new BackupOpenError(
          'tampered',
          'This link does not open: its key is wrong, or what the server sent was changed.',
        );
      }
      if (error instanceof BackupOpenError && error.code === 'invalid') {
        throw new BackupOpenError(
          'invalid',
          'This link is damaged: what the server sent is cut short.',
        );
      }
      throw error;
    },
  );
  return parseLinkPayload(unpackJson(bytes));
}
