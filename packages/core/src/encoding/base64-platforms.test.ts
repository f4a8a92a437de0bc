import { describe, expect, it } from 'vitest';
import { decodeBase64, decodePortably, encodeBase64, encodePortably } from './base64.ts';

// The platforms' own paths (Node's Buffer here, Uint8Array.fromBase64 in Chromium): wherever one
// is used, it must refuse exactly what atob's path refuses, or a device on one platform reads
// text another refuses.
describe('decodeBase64 against the portable decoder', () => {
  it('refuses characters beyond Latin-1 whose low byte is a base64 digit (Node reads Ń as C)', () => {
    // U+0143: Node's Buffer keeps only the low byte (0x43, "C"), so the length check passes.
    for (const text of ['ŃAAA', 'AAAŁ', 'Ł'.repeat(8), 'AA\u012b\u012f']) {
      expect(decodePortably(text)).toBeNull();
      expect(decodeBase64(text)).toBeNull();
    }
  });

  it('encodes a view into a larger buffer as the portable encoder does (only the view)', () => {
    const whole = new Uint8Array(Array.from({ length: 64 }, (_, n) => n * 7));
    for (const [start, end] of [
      [1, 4],
      [3, 3],
      [5, 63],
      [0, 64],
    ] as const) {
      const view = whole.subarray(start, end);
      expect(encodeBase64(view)).toBe(encodePortably(view));
      expect(decodeBase64(encodeBase64(view))).toEqual(new Uint8Array(view));
    }
  });
});
