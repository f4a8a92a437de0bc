import type { WebCryptoPort } from '@docket/core/crypto';

/** The browser's WebCrypto, as core's crypto expects it (checked by the compiler here). */
export const browserCrypto: WebCryptoPort = globalThis.crypto;
