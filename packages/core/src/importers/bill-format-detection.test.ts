import { describe, expect, it } from 'vitest';
import type { BillFormat } from './bill-format-detection.ts';
import { UNKNOWN_FORMAT_MESSAGE, detectFile, detectFormat } from './bill-format-detection.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import { readSamples, zipOf } from '../test-support/test-files.ts';

const file = (name: string, text: string) => ({ name, bytes: encodeUtf8(text) });

describe('format detection by content', () => {
  it.each<[string, BillFormat]>([
    ['legiscan/getbill/HB1001.json', 'legiscan'],
    ['legiscan/dataset/WA/2023-2024_Regular_Session/vote/7002.json', 'legiscan'],
    ['legiscan/dataset/WA/2023-2024_Regular_Session/people/503.json', 'legiscan'],
    ['legiscan/dataset/WA/2023-2024_Regular_Session/text/9002.json', 'legiscan'],
    ['openstates/scrape/sessions/2023/bills/HB12/metadata.json', 'openstates'],
    [
      'openstates/scrape/sessions/2023/bills/HB12/logs/20230301T154500Z.vote_event.pass.lower.json',
      'openstates',
    ],
    ['openstates/api-v3/bills-page.json', 'openstates'],
    ['openstates/api-v3/single-bill.json', 'openstates'],
    ['openstates/csv/VT/2023-2024/VT_2023-2024_bills.csv', 'openstates'],
    ['openstates/csv/VT/2023-2024/VT_2023-2024_vote_counts.csv', 'openstates'],
    ['billstatus/BILLSTATUS-118hr9901.xml', 'billstatus'],
    ['billstatus/BILLSTATUS-118sjres301.xml', 'billstatus'],
    ['congress-json/118/bills/hr/hr9901/data.json', 'congress-json'],
    ['docket-csv/bills.csv', 'docket-csv'],
  ])('%s is %s', (path, format) => {
    const [sample] = readSamples(path);
    if (!sample) throw new Error(path);
    expect(detectFile(sample)).toEqual({ kind: 'format', format });
    // The name is no part of it.
    expect(detectFile({ name: 'download (3).bin', bytes: sample.bytes })).toEqual({
      kind: 'format',
      format,
    });
  });

  it('refuses anything else with a message that names the expected formats', () => {
    expect(UNKNOWN_FORMAT_MESSAGE).toBe(
      'Not a known bill format: expected LegiScan JSON or ZIP, Open States JSON or CSV, GovInfo BILLSTATUS XML, congress data.json, or Docket CSV.',
    );
    for (const other of [
      file('bills.json', '{"bills": []}'),
      file('page.xml', '<html><body>bills</body></html>'),
      file('people.csv', 'name,party\nA,B\n'),
      file('x.dat', '\u0000\u0001\u0002binary'),
    ]) {
      expect(detectFile(other), other.name).toEqual({
        kind: 'unknown',
        reason: UNKNOWN_FORMAT_MESSAGE,
      });
    }
    const malformed = detectFile(file('bad.json', '{"bill": '));
    expect(malformed.kind === 'unknown' && malformed.reason).toMatch(
      /^Malformed JSON: .+\. Not a known bill format/,
    );
    expect(detectFile(file('empty.json', ''))).toEqual({
      kind: 'unknown',
      reason: 'file is empty',
    });
  });

  it('detects the format of a set of files and of a ZIP, skipping notes beside the data', () => {
    const csv = readSamples('openstates/csv');
    expect(detectFormat(csv)).toMatchObject({
      format: 'openstates',
      formats: ['openstates'],
      unknown: [],
    });
    expect(detectFormat(csv).ignored.map((ignored) => ignored.name)).toEqual([
      'openstates/csv/VT/2023-2024/README',
    ]);
    expect(detectFormat([zipOf('legiscan.zip', readSamples('legiscan/dataset'))]).format).toBe(
      'legiscan',
    );
  });

  it('calls a set with two formats mixed', () => {
    const detection = detectFormat([...readSamples('billstatus'), ...readSamples('congress-json')]);
    expect(detection.format).toBe('mixed');
    expect(detection.formats).toEqual(['billstatus', 'congress-json']);
  });

  it('refuses a lone note instead of skipping it', () => {
    expect(detectFormat([file('README.md', '# Notes')])).toMatchObject({
      format: null,
      unknown: [{ file: 'README.md', reason: UNKNOWN_FORMAT_MESSAGE }],
    });
  });
});
