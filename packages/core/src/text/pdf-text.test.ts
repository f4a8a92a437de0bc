import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import { tinyPdf } from '../test-support/tiny-pdf.ts';
import type { PdfGetDocument } from './pdf-text.ts';
import { pdfText } from './pdf-text.ts';
import { sniffVersionFormat } from './version-text.ts';

// Node 20 lacks Promise.withResolvers, which pdf.js 6 calls (every browser the app runs in has
// it); the tests give it the standard's own definition.
if (!('withResolvers' in Promise)) {
  Object.defineProperty(Promise, 'withResolvers', {
    value: <T>() => {
      let resolve!: (value: T) => void;
      let reject!: (reason: unknown) => void;
      const promise = new Promise<T>((yes, no) => {
        resolve = yes;
        reject = no;
      });
      return { promise, resolve, reject };
    },
  });
}

// pdf.js's Node build, as the app's worker build reads it.
const nodeGetDocument = getDocument as unknown as PdfGetDocument;

describe('pdfText', () => {
  it('reads the lines and sections of a PDF (a state bill as LegiScan links it)', async () => {
    const bytes = tinyPdf([
      [
        'HOUSE BILL 4242',
        'AN ACT relating to public library hours.',
        'Section 1. Hours.',
        'Every public library shall stay open until nine (9) in the evening.',
      ],
      ['Sec. 2. This act takes effect on July 1.'],
    ]);
    expect(sniffVersionFormat(bytes)).toBe('pdf');
    const pages: number[] = [];
    const text = await pdfText(nodeGetDocument, bytes, (done) => pages.push(done));
    expect(pages).toEqual([1, 2]);
    expect(text.text).toBe(
      [
        'HOUSE BILL 4242',
        'AN ACT relating to public library hours.',
        'Section 1. Hours.',
        'Every public library shall stay open until nine (9) in the evening.',
        '',
        'Sec. 2. This act takes effect on July 1.',
      ].join('\n'),
    );
    expect(text.headings.map((h) => text.text.slice(h.start, h.end))).toEqual([
      'Section 1.',
      'Sec. 2.',
    ]);
  });

  it('refuses bytes that are only the start of a PDF', async () => {
    await expect(pdfText(nodeGetDocument, encodeUtf8('%PDF-1.4 nothing else'))).rejects.toThrow();
  });
});
