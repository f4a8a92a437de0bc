import { fnv1a64Hex } from '@docket/core/bills';
import { describe, expect, it } from 'vitest';
import { downloadSource, type SourceRequest } from './source-download.ts';
import { stallGuarded, stallGuardedFetch } from './stall-guard.ts';

const sha256Hex = (bytes: Uint8Array) => Promise.resolve(fnv1a64Hex(bytes));
const url = 'https://example.org/data/bills.csv';
const cors = () => Promise.reject(new TypeError('Failed to fetch'));

describe('downloadSource', () => {
  it('revalidates through the browser cache; the ETag (or Last-Modified) of the last import means unchanged', async () => {
    const inits: RequestInit[] = [];
    let etag: string | null = '"v1"';
    const fetch = (_: string, init: RequestInit) => {
      inits.push(init);
      const headers = new Headers({ 'last-modified': 'Wed, 01 Jan 2025 00:00:00 GMT' });
      if (etag !== null) headers.set('etag', etag);
      return Promise.resolve(new Response('abc', { headers }));
    };
    const deps = { fetch, sha256Hex, relay: null };
    expect(await downloadSource({ url, etag: '"v1"', lastModified: null }, deps)).toEqual({
      unchanged: true,
    });
    etag = '"v2"';
    const input = await downloadSource({ url, etag: '"v1"', lastModified: 'Tue' }, deps);
    expect('unchanged' in input ? null : input.source).toEqual({
      etag: '"v2"',
      lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT',
    });
    expect('unchanged' in input ? null : input.files[0]?.name).toBe('bills.csv');
    etag = null;
    expect(
      await downloadSource(
        { url, etag: null, lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT' },
        deps,
      ),
    ).toEqual({ unchanged: true });
    // No header of its own: a simple request, so no CORS preflight.
    expect(inits.map((init) => [init.cache, init.headers])).toEqual([
      ['no-cache', undefined],
      ['no-cache', undefined],
      ['no-cache', undefined],
    ]);
  });

  it('falls back to the relay when the browser refuses (CORS), with its validators and its 304', async () => {
    const relayed: SourceRequest[] = [];
    const relay = (request: SourceRequest) => {
      relayed.push(request);
      return Promise.resolve(
        request.etag === '"v1"'
          ? new Response(null, { status: 304 })
          : new Response('abc', {
              headers: { 'x-source-etag': '"v1"', 'x-source-last-modified': 'Wed' },
            }),
      );
    };
    const first = await downloadSource(
      { url, etag: null, lastModified: null },
      { fetch: cors, sha256Hex, relay },
    );
    expect('unchanged' in first ? null : first.source).toEqual({
      etag: '"v1"',
      lastModified: 'Wed',
    });
    expect(
      await downloadSource(
        { url, etag: '"v1"', lastModified: null },
        { fetch: cors, sha256Hex, relay },
      ),
    ).toEqual({
      unchanged: true,
    });
    expect(relayed.map((request) => request.etag)).toEqual([null, '"v1"']);
  });

  it("shows the relay's own message, and says what to do when the relay is off or unreachable", async () => {
    const refused = () =>
      Promise.resolve(
        Response.json(
          {
            error: 'host-not-allowed',
            message: 'The Docket server does not download from example.org.',
          },
          { status: 403 },
        ),
      );
    await expect(
      downloadSource(
        { url, etag: null, lastModified: null },
        { fetch: cors, sha256Hex, relay: refused },
      ),
    ).rejects.toThrow(
      `Could not download ${url}: The Docket server does not download from example.org.`,
    );
    await expect(
      downloadSource(
        { url, etag: null, lastModified: null },
        { fetch: cors, sha256Hex, relay: null },
      ),
    ).rejects.toThrow(/turned off in Settings/);
    await expect(
      downloadSource(
        { url, etag: null, lastModified: null },
        { fetch: cors, sha256Hex, relay: cors },
      ),
    ).rejects.toThrow(/cannot be reached/);
    await expect(
      downloadSource(
        { url, etag: null, lastModified: null },
        {
          fetch: cors,
          sha256Hex,
          relay: () => Promise.resolve(new Response('?', { status: 401 })),
        },
      ),
    ).rejects.toThrow(/sign in to download through the Docket server/);
  });

  it('says plainly when the site, or the relay asked instead, sends nothing for the stall period', async () => {
    const silent = () => new Promise<Response>(() => undefined);
    await expect(
      downloadSource(
        { url, etag: null, lastModified: null },
        { fetch: stallGuardedFetch(silent, 500), sha256Hex, relay: null },
      ),
    ).rejects.toThrow(
      `Could not download ${url}: nothing came for 0.5 seconds, so Docket stopped waiting. Try again later.`,
    );
    const silentBody = () =>
      Promise.resolve(
        new Response(new ReadableStream({ pull: () => new Promise(() => undefined) })),
      );
    await expect(
      downloadSource(
        { url, etag: null, lastModified: null },
        { fetch: stallGuardedFetch(silentBody, 500), sha256Hex, relay: null },
      ),
    ).rejects.toThrow(`Could not download ${url}: nothing came for 0.5 seconds`);
    await expect(
      downloadSource(
        { url, etag: null, lastModified: null },
        { fetch: cors, sha256Hex, relay: () => stallGuarded(silent, 500) },
      ),
    ).rejects.toThrow(
      `Could not download ${url}: the site does not let other sites download it (CORS), and the Docket server, asked to download it instead, sent nothing for 0.5 seconds, so Docket stopped waiting. Try again later.`,
    );
  });
});
