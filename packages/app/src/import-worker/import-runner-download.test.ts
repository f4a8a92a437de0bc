import { fnv1a64Hex } from '@docket/core/bills';
import { describe, expect, it } from 'vitest';
import { downloadDataset } from './import-runner.ts';

describe('downloadDataset', () => {
  const sha256Hex = (bytes: Uint8Array) => Promise.resolve(fnv1a64Hex(bytes));

  it('names the file after the URL and fingerprints the bytes', async () => {
    const input = await downloadDataset('https://example.org/a/bills%20v2.csv?x=1', {
      fetch: () => Promise.resolve(new Response('abc')),
      sha256Hex,
    });
    expect(input.files.map((file) => file.name)).toEqual(['bills v2.csv']);
    expect(input.fingerprint).toMatch(
      /^url:https:\/\/example\.org\/a\/bills%20v2\.csv\?x=1\|sha256:/,
    );
  });

  it('reports an HTTP error and a file that is too big', async () => {
    await expect(
      downloadDataset('https://example.org/x', {
        fetch: () => Promise.resolve(new Response('no', { status: 404, statusText: 'Not Found' })),
        sha256Hex,
      }),
    ).rejects.toThrow(
      'Could not download https://example.org/x: the server answered 404 Not Found',
    );
    await expect(
      downloadDataset(
        'https://example.org/x',
        { fetch: () => Promise.resolve(new Response('0123456789')), sha256Hex },
        5,
      ),
    ).rejects.toThrow(/larger than/);
  });
});
