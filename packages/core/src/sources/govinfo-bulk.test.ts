import { describe, expect, it } from 'vitest';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import {
  GOVINFO_MAX_CHANGED_FILES,
  govInfoFilesToRead,
  govInfoListingUrl,
  parseGovInfoListing,
  parseGovInfoTime,
} from './govinfo-bulk.ts';

// A listing in the shape www.govinfo.gov/bulkdata/json/BILLSTATUS/119/hres answers (its entries
// as GovInfo writes them: the folder's ZIP among the XML files, times in GMT to the minute).
const entry = (name: string, time: string, size: number) => ({
  displayLabel: name,
  fileExtension: name.endsWith('.zip') ? 'zip' : 'xml',
  folder: false,
  formattedLastModifiedTime: time,
  formattedSize: `${Math.round(size / 1024)} KB`,
  justFileName: name,
  link: `https://www.govinfo.gov/bulkdata/BILLSTATUS/119/hres/${name}`,
  mimeType: name.endsWith('.zip') ? 'application/zip' : 'application/xml',
  name,
  size,
});

const listing = (entries: unknown[]) => encodeUtf8(JSON.stringify({ files: entries }));

const sample = [
  entry('BILLSTATUS-119hres10.xml', '30-Jan-2025 15:07', 8109),
  entry('BILLSTATUS-119-hres.zip', '18-Sep-2026 20:26', 3934575),
  entry('BILLSTATUS-119hres214.xml', '19-Jul-2026 02:30', 6181),
  entry('BILLSTATUS-119hres1376.xml', '24-Aug-2026 12:15', 5230),
];

describe("GovInfo's bulk data listing", () => {
  it('is the JSON listing of a Congress and bill type', () => {
    expect(govInfoListingUrl(118, 'hr')).toBe(
      'https://www.govinfo.gov/bulkdata/json/BILLSTATUS/118/hr',
    );
  });

  it('reads a listed time as GMT to the minute', () => {
    expect(parseGovInfoTime('30-Jan-2025 15:07')).toBe(Date.parse('2025-01-30T15:07:00Z'));
    expect(parseGovInfoTime('8-Sep-2026 09:05')).toBe(Date.parse('2026-09-08T09:05:00Z'));
    expect(parseGovInfoTime('2026-09-08')).toBeNull();
    expect(parseGovInfoTime(undefined)).toBeNull();
  });

  it('tells the XML files from the ZIP, and leaves folders and other files out', () => {
    const read = parseGovInfoListing(
      listing([
        ...sample,
        { ...entry('uslm', '1-Jan-2026 00:00', 0), folder: true },
        entry('README.txt', '1-Jan-2026 00:00', 10),
      ]),
    );
    expect(read.files.map((file) => file.name)).toEqual([
      'BILLSTATUS-119hres10.xml',
      'BILLSTATUS-119hres214.xml',
      'BILLSTATUS-119hres1376.xml',
    ]);
    expect(read.zip?.url).toBe(
      'https://www.govinfo.gov/bulkdata/BILLSTATUS/119/hres/BILLSTATUS-119-hres.zip',
    );
    expect(read.files[0]?.modified).toBe(Date.parse('2025-01-30T15:07:00Z'));
    expect(() => parseGovInfoListing(encodeUtf8('<html>'))).toThrow(
      'GovInfo answered the bulk data listing with something Docket cannot read.',
    );
  });

  it('reads the ZIP first, then only the files listed at or after the newest time read', () => {
    const first = govInfoFilesToRead(parseGovInfoListing(listing(sample)), null);
    expect(first.files.map((file) => file.name)).toEqual(['BILLSTATUS-119-hres.zip']);
    expect(first.partial).toBe(false);
    expect(first.complete).toBe(true);
    expect(first.since).toBe(Date.parse('2026-09-18T20:26:00Z'));

    // H.Res. 214 changed after the ZIP was built; the others did not.
    const changed = sample.map((item) =>
      item.name === 'BILLSTATUS-119hres214.xml'
        ? { ...item, formattedLastModifiedTime: '20-Sep-2026 08:00' }
        : item,
    );
    const refresh = govInfoFilesToRead(parseGovInfoListing(listing(changed)), first.since);
    expect(refresh.files.map((file) => file.name)).toEqual(['BILLSTATUS-119hres214.xml']);
    expect(refresh.partial).toBe(true);
    expect(refresh.since).toBe(Date.parse('2026-09-20T08:00:00Z'));
  });

  it('without a ZIP reads every file first; too many changed files read the ZIP again', () => {
    const files = sample.filter((item) => !item.name.endsWith('.zip'));
    const first = govInfoFilesToRead(parseGovInfoListing(listing(files)), null);
    expect(first.files).toHaveLength(3);
    expect(first.since).toBe(Date.parse('2026-08-24T12:15:00Z'));

    const many = Array.from({ length: GOVINFO_MAX_CHANGED_FILES + 1 }, (_, index) =>
      entry(`BILLSTATUS-119hres${index + 1}.xml`, '21-Sep-2026 10:00', 5000),
    );
    const read = govInfoFilesToRead(
      parseGovInfoListing(listing([...many, sample[1]])),
      Date.parse('2026-09-20T00:00:00Z'),
    );
    expect(read.files.map((file) => file.name)).toEqual(['BILLSTATUS-119-hres.zip']);
    expect(read.partial).toBe(false);
  });

  it('changes its signature when a listed time or size changes', () => {
    const before = parseGovInfoListing(listing(sample)).signature;
    const after = parseGovInfoListing(
      listing(sample.map((item, index) => (index === 0 ? { ...item, size: 8110 } : item))),
    ).signature;
    expect(after).not.toBe(before);
    expect(parseGovInfoListing(listing(sample)).signature).toBe(before);
  });

  it('says a ZIP older than a listed file does not hold every change', () => {
    const newer = sample.map((item) =>
      item.name === 'BILLSTATUS-119hres214.xml'
        ? { ...item, formattedLastModifiedTime: '18-Sep-2026 20:26' }
        : item,
    );
    const read = govInfoFilesToRead(parseGovInfoListing(listing(newer)), null);
    expect(read.files.map((file) => file.name)).toEqual(['BILLSTATUS-119-hres.zip']);
    expect(read.complete).toBe(false);
    // The next refresh reads the file listed in the ZIP's minute.
    const next = govInfoFilesToRead(parseGovInfoListing(listing(newer)), read.since);
    expect(next.files.map((file) => file.name)).toEqual(['BILLSTATUS-119hres214.xml']);
  });
});
