import { describe, expect, it } from 'vitest';
import { BIP39_ENGLISH_WORDS } from './bip39-english-words.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import type { WebCryptoPort } from './web-crypto.ts';

const webCrypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;

describe('the BIP-39 English word list', () => {
  it('has exactly 2048 distinct words of lowercase letters', () => {
    expect(BIP39_ENGLISH_WORDS).toHaveLength(2048);
    expect(new Set(BIP39_ENGLISH_WORDS).size).toBe(2048);
    for (const word of BIP39_ENGLISH_WORDS) expect(word).toMatch(/^[a-z]{3,8}$/);
  });

  it('is the published file, word for word and in order (its SHA-256)', async () => {
    const file = new Uint8Array(encodeUtf8(`${BIP39_ENGLISH_WORDS.join('\n')}\n`));
    const digest = new Uint8Array(await webCrypto.subtle.digest('SHA-256', file));
    const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
    expect(hex).toBe('2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda');
    expect(BIP39_ENGLISH_WORDS.slice(0, 3)).toEqual(['abandon', 'ability', 'able']);
    expect(BIP39_ENGLISH_WORDS[2047]).toBe('zoo');
  });

  it('tells every word by its first four letters, as BIP-39 promises', () => {
    const prefixes = new Set(BIP39_ENGLISH_WORDS.map((word) => word.slice(0, 4)));
    expect(prefixes.size).toBe(2048);
  });
});
