import { saveDevicePreferences } from '@docket/core/device';
import { createMemoryLocalStore } from '@docket/core/store';
import { storedBill } from '@docket/core/test-support/bill-command-harness';
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

describe("getVersionText from LegiScan's API", () => {
  // A version with a LegiScan doc_id, of a bill from a dataset of LegiScan's API: its text comes
  // through getBillText (a hand-made answer in the manual's shape), not from the state's URL.
  const html =
    '<html><body><pre>Sec. 1. FERRIES.\n    Fares fall by a quarter.</pre></body></html>';
  const legiscanVersion = { ...version, docId: 9003 };

  async function legiscanStore(options: { key: boolean; origin: 'legiscan' | 'url' }) {
    const store = createMemoryLocalStore();
    const at = '2026-11-26T12:00:00.000Z';
    await store.write(['bills', 'datasets', 'apiKeys'], async (tx) => {
      await tx.put('bills', {
        ...storedBill(5151),
        id: version.billId,
        datasetIds: ['d1'],
      });
      await tx.put('datasets', {
        id: 'd1',
        name: 'Washington',
        origin:
          options.origin === 'legiscan'
            ? { kind: 'legiscan', state: 'WA', sessionId: 2048 }
            : { kind: 'url', url: 'https://lis.example.gov/bills.zip' },
        jurisdiction: null,
        session: null,
        format: 'legiscan',
        billCount: 1,
        lastImportAt: at,
        lastJobId: null,
        state: 'ready',
        createdAt: at,
        updatedAt: at,
      });
      if (options.key) await tx.put('apiKeys', { source: 'legiscan', key: 'K3Y', updatedAt: at });
    });
    return store;
  }

  const getBillText = (doc: string, mime = 'text/html') =>
    JSON.stringify({
      status: 'OK',
      text: {
        doc_id: 9003,
        bill_id: 1900003,
        date: '2023-01-11',
        type: 'Introduced',
        type_id: 1,
        mime,
        mime_id: 1,
        text_size: html.length,
        doc,
      },
    });

  it('asks getBillText with the key and reads the decoded document', async () => {
    const asked: string[] = [];
    const row = await getVersionText(
      legiscanVersion,
      {
        ...deps((url) => {
          asked.push(url);
          return Promise.resolve(new Response(getBillText(btoa(html))));
        }),
        store: await legiscanStore({ key: true, origin: 'legiscan' }),
      },
      () => undefined,
    );
    expect(asked).toEqual(['https://api.legiscan.com/?key=K3Y&op=getBillText&id=9003']);
    expect(row).toMatchObject({
      format: 'html',
      url: URL_,
      text: 'Sec. 1. FERRIES.\n    Fares fall by a quarter.',
    });
  });

  it('says a missing key, and a document Docket does not read, without the address', async () => {
    const noKey = getVersionText(
      legiscanVersion,
      {
        ...deps(refused),
        store: await legiscanStore({ key: false, origin: 'legiscan' }),
      },
      () => undefined,
    );
    await expect(noKey).rejects.toThrow(
      'Add your LegiScan API key in Settings (on the More tab) to get this text from LegiScan.',
    );
    const word = getVersionText(
      legiscanVersion,
      {
        ...deps(() =>
          Promise.resolve(
            new Response(
              getBillText(btoa('PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00'), 'application/msword'),
            ),
          ),
        ),
        store: await legiscanStore({ key: true, origin: 'legiscan' }),
      },
      () => undefined,
    );
    await expect(word).rejects.toThrow(/LegiScan keeps it as application\/msword/);
    await expect(word).rejects.not.toThrow(/K3Y/);
  });

  it("goes to the version's URL when the bill's dataset is not LegiScan's API", async () => {
    const asked: string[] = [];
    await getVersionText(
      legiscanVersion,
      {
        ...deps((url) => {
          asked.push(url);
          return Promise.resolve(new Response(html));
        }),
        store: await legiscanStore({ key: true, origin: 'url' }),
      },
      () => undefined,
    );
    expect(asked).toEqual([URL_]);
  });
});
