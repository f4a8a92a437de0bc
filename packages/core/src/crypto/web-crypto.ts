// The part of WebCrypto core's crypto uses, typed here because core is compiled without the DOM
// library: the app passes the browser's `crypto`, tests pass Node's (the same API). Keys stay
// opaque to core: it only hands them back to the same implementation.

export interface OpaqueCryptoKey {
  readonly type: string;
  readonly extractable: boolean;
  readonly algorithm: unknown;
  readonly usages: readonly string[];
}

type Usage = 'encrypt' | 'decrypt' | 'wrapKey' | 'unwrapKey';
type Bytes = Uint8Array<ArrayBuffer>;

export interface AesGcmParams {
  name: 'AES-GCM';
  iv: Bytes;
  additionalData: Bytes;
  tagLength: 128;
}

export interface SubtleCryptoPort {
  importKey(
    format: 'raw',
    keyData: Bytes,
    algorithm: { name: 'AES-KW' } | { name: 'AES-GCM' },
    extractable: boolean,
    keyUsages: Usage[],
  ): Promise<OpaqueCryptoKey>;
  generateKey(
    algorithm: { name: 'AES-GCM'; length: 256 },
    extractable: boolean,
    keyUsages: Usage[],
  ): Promise<OpaqueCryptoKey>;
  encrypt(algorithm: AesGcmParams, key: OpaqueCryptoKey, data: Bytes): Promise<ArrayBuffer>;
  digest(algorithm: 'SHA-256', data: Bytes): Promise<ArrayBuffer>;
  decrypt(algorithm: AesGcmParams, key: OpaqueCryptoKey, data: Bytes): Promise<ArrayBuffer>;
  wrapKey(
    format: 'raw',
    key: OpaqueCryptoKey,
    wrappingKey: OpaqueCryptoKey,
    wrapAlgorithm: { name: 'AES-KW' },
  ): Promise<ArrayBuffer>;
  unwrapKey(
    format: 'raw',
    wrappedKey: Bytes,
    unwrappingKey: OpaqueCryptoKey,
    unwrapAlgorithm: { name: 'AES-KW' },
    unwrappedKeyAlgorithm: { name: 'AES-GCM'; length: 256 },
    extractable: boolean,
    keyUsages: Usage[],
  ): Promise<OpaqueCryptoKey>;
}

export interface WebCryptoPort {
  readonly subtle: SubtleCryptoPort;
  getRandomValues<T extends Bytes>(array: T): T;
}

/**
 * Imports raw key bytes as a non-extractable key and wipes the bytes, imported or not: a
 * derived or unwrapped key then lives only inside the crypto implementation.
 */
export async function importRawKeyAndWipe(
  crypto: WebCryptoPort,
  bytes: Uint8Array,
  name: 'AES-GCM' | 'AES-KW',
): Promise<OpaqueCryptoKey> {
  const usages: Usage[] = name === 'AES-GCM' ? ['encrypt', 'decrypt'] : ['wrapKey', 'unwrapKey'];
  try {
    return await crypto.subtle.importKey('raw', new Uint8Array(bytes), { name }, false, usages);
  } finally {
    bytes.fill(0);
  }
}
