import { encodeBase64 } from '@docket/core/encoding';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { nativeSourceFetch } from './native-source-fetch.ts';

// Capacitor's HTTP replaced where it enters: it answers as the bridge does, the body of an
// 'arraybuffer' request as base64 and the headers as the server spelled them.
const http = vi.hoisted(() => ({
  get: vi.fn((_: { url: string; headers: Record<string, string>; responseType: string }) =>
    Promise.resolve({
      status: 200,
      headers: {},
      data: '',
      url: '',
    }),
  ),
}));

vi.mock('@capacitor/core', () => ({ CapacitorHttp: http }));

const url = 'https://www.govinfo.gov/bulkdata/BILLSTATUS/118/hr/BILLSTATUS-118hr1.xml';

beforeEach(() => {
  http.get.mockReset();
});

describe('sources fetched by the native shells', () => {
  it('asks for bytes and gives them back with the headers in lower case', async () => {
    const bytes = new Uint8Array([0x3c, 0x3f, 0x78, 0x6d, 0x6c, 0x00, 0xff]);
    http.get.mockResolvedValue({
      status: 200,
      headers: { ETag: '"abc"', 'Last-Modified': 'Wed' },
      data: encodeBase64(bytes),
      url,
    });
    const answer = await nativeSourceFetch(url, { 'if-none-match': '"old"' });
    expect(http.get.mock.calls[0]?.[0]).toMatchObject({
      url,
      headers: { 'if-none-match': '"old"' },
      responseType: 'arraybuffer',
    });
    expect(answer).toEqual({
      status: 200,
      statusText: '',
      headers: { etag: '"abc"', 'last-modified': 'Wed' },
      body: bytes,
    });
  });

  it('answers a 304 with no body', async () => {
    http.get.mockResolvedValue({ status: 304, headers: {}, data: '', url });
    expect((await nativeSourceFetch(url, {})).body).toBeNull();
  });

  it('says the site could not be reached when the request fails', async () => {
    http.get.mockRejectedValue(new Error('Unable to resolve host'));
    await expect(nativeSourceFetch(url, {})).rejects.toThrow(
      `Could not download ${url}: the site could not be reached (Unable to resolve host).`,
    );
  });

  it('refuses a body that is not base64', async () => {
    http.get.mockResolvedValue({ status: 200, headers: {}, data: '<html>not base64', url });
    await expect(nativeSourceFetch(url, {})).rejects.toThrow('the answer was garbled');
  });
});
