import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { webPlatform } from './web-platform.ts';

// jsdom has neither object URLs nor navigator.share: both are stood in for here, and the link's
// click is caught before jsdom tries to navigate.

const objectUrls = new Map<string, Blob>();
const createObjectURL = vi.fn((blob: Blob) => {
  const url = `blob:docket/${objectUrls.size + 1}`;
  objectUrls.set(url, blob);
  return url;
});
const revokeObjectURL = vi.fn((url: string) => {
  objectUrls.delete(url);
});

function offered(url: string): Blob {
  const blob = objectUrls.get(url);
  if (blob === undefined) throw new Error(`Nothing was offered at ${url}.`);
  return blob;
}

interface Click {
  readonly href: string;
  readonly download: string;
  readonly hidden: boolean;
  readonly inDocument: boolean;
}
let clicks: Click[] = [];

beforeEach(() => {
  vi.useFakeTimers();
  Object.assign(URL, { createObjectURL, revokeObjectURL });
  clicks = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicks.push({
      href: this.href,
      download: this.download,
      hidden: this.style.display === 'none',
      inDocument: document.body.contains(this),
    });
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  objectUrls.clear();
  Reflect.deleteProperty(navigator, 'share');
});

describe('the web saveFile', () => {
  it('offers the bytes as a download and lets the URL go a minute later', async () => {
    const bytes = new Uint8Array([0x1f, 0x8b, 0, 255]);
    await webPlatform.saveFile(
      'docket-full-backup-2025-01-02.docket-backup',
      bytes,
      'application/octet-stream',
    );

    expect(clicks).toEqual([
      {
        href: 'blob:docket/1',
        download: 'docket-full-backup-2025-01-02.docket-backup',
        hidden: true,
        inDocument: true,
      },
    ]);
    expect(document.querySelector('a')).toBeNull();
    const blob = offered('blob:docket/1');
    expect(blob.type).toBe('application/octet-stream');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes);

    vi.advanceTimersByTime(59_999);
    expect(revokeObjectURL).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:docket/1');
  });

  it('offers a Blob under the given type', async () => {
    await webPlatform.saveFile(
      'bills.csv',
      new Blob(['\uFEFFid,title\n']),
      'text/csv;charset=utf-8',
    );
    const blob = offered('blob:docket/1');
    expect(blob.type).toBe('text/csv;charset=utf-8');
    // Compared as bytes: Blob.text() would drop the byte-order mark.
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(
      new TextEncoder().encode('\uFEFFid,title\n'),
    );
    expect(clicks.map((click) => click.download)).toEqual(['bills.csv']);
  });
});

describe('the web shareLink', () => {
  it('cannot share where the browser has no navigator.share', () => {
    expect(webPlatform.canShareLinks()).toBe(false);
  });

  it('shares through navigator.share, and a closed sheet is no error', async () => {
    const share = vi.fn((_: ShareData) => Promise.resolve());
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    expect(webPlatform.canShareLinks()).toBe(true);

    await webPlatform.shareLink('https://docket.example.org/public-link/1#k=abc', 'Shared bills');
    expect(share).toHaveBeenCalledWith({
      title: 'Shared bills',
      url: 'https://docket.example.org/public-link/1#k=abc',
    });

    share.mockRejectedValueOnce(new DOMException('Share canceled', 'AbortError'));
    await expect(webPlatform.shareLink('https://x.example/', 'Shared bills')).resolves.toBe(
      undefined,
    );
    share.mockRejectedValueOnce(new DOMException('Not allowed', 'NotAllowedError'));
    await expect(webPlatform.shareLink('https://x.example/', 'Shared bills')).rejects.toThrow(
      'Not allowed',
    );
  });
});
