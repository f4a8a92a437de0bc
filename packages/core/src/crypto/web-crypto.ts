// The part of WebCrypto core's crypto uses, typed here because core is compiled without the DOM
// library: the app passes the browser's `crypto`, tests pass Node's (the same API). Keys stay
// opaque to core: it only hands them back to the same implementation.

export interface OpaqueCryptoKey {
  readonly type: string;
  readonly extractable: boolean;
  readonly algorithm: unknown;
  readonly usages: readonly string[];
}

export interface OpaqueCryptoKeyPair {
  readonly publicKey: OpaqueCryptoKey;
  readonly privateKey: OpaqueCryptoKey;
}

type Usage = 'encrypt' | 'decrypt' | 'wrapKey' | 'unwrapKey' | 'deriveBits';
type Bytes = Uint8Array<ArrayBuffer>;

/** The curve of member keys (member-keys.ts): ECDH on P-256, which every WebCrypto has. */
export interface EcdhP256 {
  name: 'ECDH';
  namedCurve: 'P-256';
}

export interface EcdhDeriveParams {
  name: 'ECDH';
  public: OpaqueCryptoKey;
}

export interface HkdfParams {
  name: 'HKDF';
  hash: 'SHA-256';
  salt: Bytes;
  info: Bytes;
}

export interface AesGcmParams {
  name: 'AES-GCM';
  iv: Bytes;
  additionalData: Bytes;
  tagLength: 128;
}

export interface SubtleCryptoPort {
  importKey(
    format: 'raw' | 'pkcs8',
    keyData: Bytes,
    algorithm: { name: 'AES-KW' } | { name: 'AES-GCM' } | { name: 'HKDF' } | EcdhP256,
    extractable: boolean,
    keyUsages: Usage[],
  ): Promise<OpaqueCryptoKey>;
  generateKey(
    algorithm: { name: 'AES-GCM'; length: 256 },
    extractable: boolean,
    keyUsages: Usage[],
  ): Promise<OpaqueCryptoKey>;
  generateKey(
    algorithm: EcdhP256,
    extractable: boolean,
    keyUsages: Usage[],
  ): Promise<OpaqueCryptoKeyPair>;
  exportKey(format: 'raw' | 'pkcs8', key: OpaqueCryptoKey): Promise<ArrayBuffer>;
  deriveBits(
    algorithm: EcdhDeriveParams | HkdfParams,
    baseKey: OpaqueCryptoKey,
    length: number,
  ): Promise<ArrayBuffer>;
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

const RAW_KEY_USAGES: Record<'AES-GCM' | 'AES-KW' | 'HKDF', Usage[]> = {
  'AES-GCM': ['encrypt', 'decrypt'],
  'AES-KW': ['wrapKey', 'unwrapKey'],
  HKDF: ['deriveBits'],
};

/**
 * Imports raw key bytes as a non-extractable key and wipes the bytes, imported or not: a
 * derived or unwrapped key then lives only inside the crypto implementation. (The copy handed to
 * importKey is wiped too: the implementation keeps its own.)
 */
export async function importRawKeyAndWipe(
  crypto: WebCryptoPort,
  bytes: Uint8Array,
  name: 'AES-GCM' | 'AES-KW' | 'HKDF',
): Promise<OpaqueCryptoKey> {
  const copy = new Uint8Array(bytes);
  try {
    return await crypto.subtle.importKey('raw', copy, { name }, false, RAW_KEY_USAGES[name]);
  } finally {
    bytes.fill(0);
    copy.fill(0);
  }
}

/**
 * Imports a member's ECDH private key (PKCS #8 bytes) as non-extractable and wipes the bytes,
 * imported or not, as `importRawKeyAndWipe` does for raw keys.
 */
export async function importEcdhPrivateKeyAndWipe(
  crypto: WebCryptoPort,
  pkcs8: Uint8Array,
): Promise<OpaqueCryptoKey> {
  const copy = new Uint8Array(pkcs8);
  try {
    return await crypto.subtle.importKey(
      'pkcs8',
      copy,
      { name: 'ECDH', namedCurve: 'P-256' },
      false,
      ['deriveBits'],
    );
  } finally {
    pkcs8.fill(0);
    copy.fill(0);
  }
}
