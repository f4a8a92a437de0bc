import { describe, expect, it } from 'vitest';
import { downloadGovInfo, type GovInfoDownloadDeps } from './govinfo-download.ts';

// GovInfo's bulk data as its JSON listing answers (www.govinfo.gov/bulkdata/json/BILLSTATUS/…),
// by hand: the folder's ZIP and two BILLSTATUS files.
const base = 'https://www.govinfo.gov/bulkdata/BILLSTATUS/118/hr/';
const entry = (name: string, time: string, size = 100) => ({
  folder: false,
  formattedLastModifiedTime: time,
  justFileName: name,
  link: `${base}${name}`,
  name,
  size,
});

function govInfo(entries: () => unknown[]) {
  const requested: { url: string; accept: string | null }[] = [];
  const fetch: GovInfoDownloadDeps['fetch'] = (url, init) => {
    requested.push({ url, accept: new Headers(init.headers).get('accept') });
    if (url.includes('/bulkdata/json/'))
      return Promise.resolve(Response.json({ files: entries() }));
    return Promise.resolve(new Response(`<billStatus>${url}</billStatus>`));
  };
  return { requested, fetch };
}

const sha256Hex = async (bytes: Uint8Array<ArrayBuffer>) =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('');

const origin = { congress: 118, billType: 'hr' };

describe('a dataset from GovInfo bulk data', () => {
  it('reads the ZIP first, then only the changed files, and an unchanged listing is one request', async () => {
    let listed = [
      entry('BILLSTATUS-118hr1.xml', '02-Jan-2025 10:00'),
      entry('BILLSTATUS-118-hr.zip', '03-Jan-2025 04:00', 5000),
      entry('BILLSTATUS-118hr2.xml', '01-Jan-2025 09:00'),
    ];
    const source = govInfo(() => listed);
    const deps = { fetch: source.fetch, relay: null, sha256Hex };
    const first = await downloadGovInfo(origin, { hash: null, since: null }, deps);
    if ('unchanged' in first) throw new Error('expected bills');
    expect(source.requested).toEqual([
      {
        url: 'https://www.govinfo.gov/bulkdata/json/BILLSTATUS/118/hr',
        accept: 'application/json',
      },
      { url: `${base}BILLSTATUS-118-hr.zip`, accept: null },
    ]);
    expect(first.files.map((file) => file.name)).toEqual(['BILLSTATUS-118-hr.zip']);
    expect(first.partial).toBeUndefined();
    expect(first.source?.since).toBe('2025-01-03T04:00:00.000Z');
    const kept = { hash: first.source?.hash ?? null, since: first.source?.since ?? null };

    // Nothing changed: the listing's hash is the kept one.
    expect(await downloadGovInfo(origin, kept, deps)).toEqual({ unchanged: true });
    expect(source.requested).toHaveLength(3);

    // H.R. 2 changed after the ZIP was built.
    listed = listed.map((item) =>
      item.name === 'BILLSTATUS-118hr2.xml'
        ? { ...item, formattedLastModifiedTime: '05-Jan-2025 12:30' }
        : item,
    );
    const refresh = await downloadGovInfo(origin, kept, deps);
    if ('unchanged' in refresh) throw new Error('expected bills');
    expect(source.requested.slice(3).map((request) => request.url)).toEqual([
      'https://www.govinfo.gov/bulkdata/json/BILLSTATUS/118/hr',
      `${base}BILLSTATUS-118hr2.xml`,
    ]);
    expect(refresh.partial).toBe(true);
    expect(refresh.source?.since).toBe('2025-01-05T12:30:00.000Z');
    expect(refresh.source?.hash).not.toBe(kept.hash);
  });

  it('goes through the relay with the Accept the listing needs when the browser may not read it', async () => {
    const relayed: unknown[] = [];
    const input = await downloadGovInfo(
      origin,
      { hash: null, since: null },
      {
        fetch: () => Promise.reject(new TypeError('Failed to fetch')),
        relay: (request) => {
          relayed.push(request);
          return Promise.resolve(
            request.url.includes('/json/')
              ? Response.json({ files: [entry('BILLSTATUS-118hr1.xml', '02-Jan-2025 10:00')] })
              : new Response('<billStatus/>'),
          );
        },
        sha256Hex,
      },
    );
    if ('unchanged' in input) throw new Error('expected bills');
    expect(relayed).toEqual([
      {
        url: 'https://www.govinfo.gov/bulkdata/json/BILLSTATUS/118/hr',
        etag: null,
        lastModified: null,
        accept: 'application/json',
      },
      { url: `${base}BILLSTATUS-118hr1.xml`, etag: null, lastModified: null },
    ]);
  });

  it('says an empty folder and a failed listing in words', async () => {
    const empty = govInfo(() => []);
    await expect(
      downloadGovInfo(
        origin,
        { hash: null, since: null },
        { fetch: empty.fetch, relay: null, sha256Hex },
      ),
    ).rejects.toThrow("GovInfo lists no BILLSTATUS files for the 118th Congress's HR bills.");
    await expect(
      downloadGovInfo(
        origin,
        { hash: null, since: null },
        { fetch: () => Promise.resolve(new Response('', { status: 406 })), relay: null, sha256Hex },
      ),
    ).rejects.toThrow('GovInfo answered 406 for the bulk data listing.');
  });
});
