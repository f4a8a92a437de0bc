import { describe, expect, it } from 'vitest';
import { encodeBase64 } from '../encoding/base64.ts';
import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';
import {
  findLegiscanSession,
  isLegiscanApiUrl,
  legiscanDatasetListUrl,
  legiscanBillTextUrl,
  legiscanDatasetUrl,
  legiscanRateLimited,
  parseLegiscanBillText,
  parseLegiscanDataset,
  parseLegiscanDatasetList,
} from './legiscan-api.ts';
import { retryAfterSeconds } from './source-api.ts';

const bytes = (value: unknown) => encodeUtf8(JSON.stringify(value));

const entry = {
  state_id: 2,
  session_id: 1843,
  special: 0,
  year_start: 2011,
  year_end: 2012,
  session_name: '27th Legislature',
  session_title: '27th Legislature',
  dataset_hash: 'a1b2c3',
  dataset_date: '2012-06-03',
  dataset_size: 1234,
  access_key: 'acc3ss',
};

describe("LegiScan's API", () => {
  it('builds getDatasetList and getDataset as the manual spells them, the key in the query', () => {
    expect(legiscanDatasetListUrl('k&y', 'AK')).toBe(
      'https://api.legiscan.com/?key=k%26y&op=getDatasetList&state=AK',
    );
    expect(legiscanDatasetUrl('key', 1843, 'acc/ss')).toBe(
      'https://api.legiscan.com/?key=key&op=getDataset&id=1843&access_key=acc%2Fss',
    );
    expect(isLegiscanApiUrl(legiscanDatasetUrl('key', 1, 'a'))).toBe(true);
    expect(isLegiscanApiUrl('https://legiscan.com/AK/datasets')).toBe(false);
  });

  it('reads the list and finds the session by its session_id', () => {
    const list = parseLegiscanDatasetList(
      bytes({ status: 'OK', datasetlist: [entry, { ...entry, session_id: 9, year_start: 2013 }] }),
    );
    expect(findLegiscanSession(list, 'AK', 1843).dataset_hash).toBe('a1b2c3');
    expect(() => findLegiscanSession(list, 'AK', 7)).toThrow(
      'LegiScan has no dataset for session 7 of AK. Its sessions: 1843 (27th Legislature), 9 (27th Legislature).',
    );
  });

  it("says LegiScan's refusal in its own words, never the address", () => {
    const refused = bytes({ status: 'ERROR', alert: { message: 'Invalid API key' } });
    expect(() => parseLegiscanDatasetList(refused)).toThrow(
      'LegiScan refused the API key: Invalid API key',
    );
    expect(() => parseLegiscanDataset(refused)).toThrow(
      'LegiScan refused to send the dataset: Invalid API key',
    );
    expect(() => parseLegiscanDatasetList(encodeUtf8('<html>'))).toThrow(
      'LegiScan answered the list of datasets with something Docket cannot read.',
    );
  });

  it('decodes the dataset ZIP from base64', () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
    const dataset = parseLegiscanDataset(
      bytes({
        status: 'OK',
        dataset: {
          state_id: 2,
          session_id: 1843,
          session_name: '27th Legislature',
          dataset_hash: 'a1b2c3',
          dataset_date: '2012-06-03',
          dataset_size: 7,
          mime_type: 'application/zip',
          zip: encodeBase64(zip),
        },
      }),
    );
    expect(dataset.hash).toBe('a1b2c3');
    expect([...dataset.zip]).toEqual([...zip]);
  });

  it("reads a 429's Retry-After as seconds or a date, and says when to try again", () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds('12', now)).toBe(12);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:02:00 GMT', now)).toBe(120);
    expect(retryAfterSeconds(null, now)).toBeNull();
    expect(legiscanRateLimited(600).message).toBe(
      'LegiScan is limiting requests from this key (429 Too Many Requests); refresh again in 10 minutes.',
    );
  });
});

describe("LegiScan's getBillText", () => {
  // A hand-made answer in the manual's shape: a text object with its base64 document.
  const html = '<html><body><p>Section 1. An Act relating to ferries.</p></body></html>';
  const answer = (doc: string, extra: Record<string, unknown> = {}) => ({
    status: 'OK',
    text: {
      doc_id: 153588,
      bill_id: 231132,
      date: '2011-01-18',
      type: 'Introduced',
      type_id: 1,
      mime: 'text/html',
      mime_id: 1,
      text_size: html.length,
      doc,
      ...extra,
    },
  });

  it('asks for one document by its doc_id, the key in the query', () => {
    expect(legiscanBillTextUrl('k&y', 153588)).toBe(
      'https://api.legiscan.com/?key=k%26y&op=getBillText&id=153588',
    );
  });

  it('decodes the base64 document and keeps its mime type', () => {
    const text = parseLegiscanBillText(bytes(answer(encodeBase64(encodeUtf8(html)))), 153588);
    expect(text.mime).toBe('text/html');
    expect(decodeUtf8(text.bytes)).toBe(html);
    const pdf = parseLegiscanBillText(
      bytes(answer(encodeBase64(encodeUtf8('%PDF-1.4 …')), { mime: 'application/pdf' })),
      153588,
    );
    expect(pdf.mime).toBe('application/pdf');
  });

  it("says LegiScan's refusal, and refuses another document or a damaged one", () => {
    expect(() =>
      parseLegiscanBillText(
        bytes({ status: 'ERROR', alert: { message: 'Unknown document id' } }),
        153588,
      ),
    ).toThrow('LegiScan refused to send the text: Unknown document id');
    expect(() =>
      parseLegiscanBillText(bytes(answer(encodeBase64(encodeUtf8(html)))), 224009),
    ).toThrow('LegiScan answered the text of document 224009 with something Docket cannot read.');
    expect(() => parseLegiscanBillText(bytes(answer('not base64 !!')), 153588)).toThrow(
      /cannot read/,
    );
  });
});
