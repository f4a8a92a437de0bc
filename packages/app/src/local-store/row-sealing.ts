// What seals and opens private rows (core's sealed-rows.ts, WebCrypto) and the database's vault
// key (device-vault.ts, Argon2id), loaded by the store the first time a private row is read or
// written, so that a screen's first script (the deck reads only bills and decisions) carries
// none of it.
export { openRow, sealRow } from '@docket/core/store';
export { browserCrypto } from '../crypto/browser-crypto.ts';
export { vaultRowKey } from './device-vault.ts';
