import { saveDevicePreferences } from '@docket/core/device';
import { createMemoryLocalStore } from '@docket/core/store';
import { tinyPdf } from '@docket/core/test-support/tiny-pdf';
import { describe, expect, it } from 'vitest';
import type { SourceFetch } from './source-download.ts';
import { getVersionText, type GetTextDeps, MAX_VERSION_BYTES } from './version-text-download.ts';

// "Get text" on the page's side: where the bytes come from, what they become, and the words of
// each refusal. pdf.js itself is core's test (pdf-text.test.ts); here its reader is a stand-in.

const URL_ = 'https://lis.example.gov/hb5151.htm';
const version = { billId: 'us-wa/2023-2024-regular-session/hb-5151', index: 0, url: URL_ };

function deps(
  fetch: SourceFetch,
  relay: GetTextDeps['relay'] = () => Promise.reject(new Error('no relay in this test')),
): GetTextDeps {
  return {
    store: createMemoryLocalStore(),
    fetch,
    relay,
    now: () => '2026-11-26T12:00:00.000Z',
    readPdf: () => Promise.resolve({ text: 'Sec. 1. HOURS.\nOpen late.', headings: [] }),
  };
}

const answer =
  (body: BodyInit, headers: Record<string, string> = {}) =>
  () =>
    Promise.resolve(new Response(body, { status: 200, headers }));
const refused: SourceFetch = () => Promise.reject(new TypeError('Failed to fetch'));

describe('getVersionText', () => {
  it('keeps an HTML version as structured text on the device', async () => {
    const steps: string[] = [];
    const row = await getVersionText(
      version,
      deps(answer('<pre>Sec. 1. HOURS.\n    Open until nine.</pre>')),
      (progress) => steps.push(progress.step),
    );
    expect(steps).toEqual(['downloading', 'reading']);
    expect(row).toMatchObject({
      id: `${version.billId}|0`,
      format: 'html',
      text: 'Sec. 1. HOURS.\n    Open until nine.',
      headings: [{ start: 0, end: 14 }],
    });
  });

  it('reads a PDF through the PDF reader', async () => {
    const row = await getVersionText(version, deps(answer(tinyPdf([['x']]))), () => undefined);
    expect(row).toMatchObject({ format: 'pdf', text: 'Sec. 1. HOURS.\nOpen late.' });
  });

  it('goes through the relay when the site refuses other sites', async () => {
    const relayed: string[] = [];
    const row = await getVersionText(
      version,
      deps(refused, (request) => {
        relayed.push(request.url);
        return Promise.resolve(new Response('AN ACT relating to hours.'));
      }),
      () => undefined,
    );
    expect(relayed).toEqual([URL_]);
    expect(row.format).toBe('text');
  });

  it('says why there is no text: refused with the relay off, too large, not a text format', async () => {
    const off = deps(refused);
    await saveDevicePreferences(off.store, { sourceRelay: false });
    await expect(getVersionText(version, off, () => undefined)).rejects.toThrow(
      /does not let other sites download it \(CORS\), and downloads through the Docket server are turned off in Settings\. Turn them on, or read it through "Original document"\./,
    );
    await expect(
      getVersionText(
        version,
        deps(answer('x', { 'content-length': String(MAX_VERSION_BYTES + 1) })),
        () => undefined,
      ),
    ).rejects.toThrow(/larger than 50 MB/);
    await expect(
      getVersionText(version, deps(answer(new Uint8Array([0x50, 0x4b, 3, 4, 0]))), () => undefined),
    ).rejects.toThrow(/not a text format Docket reads/);
  });
});
