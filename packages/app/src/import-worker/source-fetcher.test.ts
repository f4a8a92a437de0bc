import { fnv1a64Hex } from '@docket/core/bills';
import { describe, expect, it } from 'vitest';
import type { SourceAnswer } from '../platform/platform.ts';
import { downloadSource } from './source-download.ts';
import { fetchThrough } from './source-fetcher.ts';

// A source read through the platform's own HTTP (the native shells): the answer crosses from the
// page as plain data; it must read as the browser's own fetch reads, and an unchanged source must
// still cost a 304, which here needs the validators sent by hand.

const sha256Hex = (bytes: Uint8Array) => Promise.resolve(fnv1a64Hex(bytes));
const url = 'https://legiscan.example/datasets/AK_2025.zip';

/** A source that knows one version, "v2", and answers 304 to a request that names it. */
function source() {
  const asked: Record<string, string>[] = [];
  const fetcher = (_: string, headers: Record<string, string>): Promise<SourceAnswer> => {
    asked.push(headers);
    if (headers['if-none-match'] === '"v2"') {
      return Promise.resolve({ status: 304, statusText: '', headers: {}, body: null });
    }
    return Promise.resolve({
      status: 200,
      statusText: '',
      headers: { etag: '"v2"', 'last-modified': 'Wed, 01 Jan 2025 00:00:00 GMT' },
      body: new TextEncoder().encode('bill_id,title\n1,A bill\n'),
    });
  };
  return { asked, deps: { fetch: fetchThrough(fetcher), sha256Hex, relay: null } };
}

describe('sources fetched through the platform', () => {
  it('reads the bytes and keeps the validators, as a direct fetch does', async () => {
    const { asked, deps } = source();
    const input = await downloadSource({ url, etag: null, lastModified: null }, deps);
    if ('unchanged' in input) throw new Error('expected bytes');
    expect(input.source).toEqual({
      etag: '"v2"',
      lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT',
    });
    expect(input.files[0]?.name).toBe('AK_2025.zip');
    expect(new TextDecoder().decode(input.files[0]?.bytes)).toContain('A bill');
    expect(asked).toEqual([{}]);
  });

  it('sends what the last import kept, so an unchanged source answers 304', async () => {
    const { asked, deps } = source();
    const kept = { url, etag: '"v2"', lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT' };
    expect(await downloadSource(kept, deps)).toEqual({ unchanged: true });
    expect(asked).toEqual([
      { 'if-none-match': '"v2"', 'if-modified-since': 'Wed, 01 Jan 2025 00:00:00 GMT' },
    ]);
  });

  it('says what the site answered when it refuses', async () => {
    const deps = {
      fetch: fetchThrough(() =>
        Promise.resolve({ status: 403, statusText: 'Forbidden', headers: {}, body: null }),
      ),
      sha256Hex,
      relay: null,
    };
    await expect(downloadSource({ url, etag: null, lastModified: null }, deps)).rejects.toThrow(
      `Could not download ${url}: the server answered 403 Forbidden`,
    );
  });

  it('passes on why there was no answer, without trying the relay', async () => {
    let relayed = false;
    const deps = {
      fetch: fetchThrough(() =>
        Promise.reject(new Error(`Could not download ${url}: the site could not be reached.`)),
      ),
      sha256Hex,
      relay: () => {
        relayed = true;
        return Promise.resolve(new Response('x'));
      },
    };
    await expect(downloadSource({ url, etag: null, lastModified: null }, deps)).rejects.toThrow(
      'the site could not be reached',
    );
    expect(relayed).toBe(false);
  });
});
