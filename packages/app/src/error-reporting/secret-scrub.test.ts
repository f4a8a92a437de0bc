import { describe, expect, it } from 'vitest';
import {
  scrubBreadcrumb,
  scrubRecordingEvent,
  withoutAddressSecrets,
  withoutAddressSecretsDeep,
  withoutLinkKeys,
} from './secret-scrub.ts';

describe('reports keep no query string', () => {
  it('takes the query out of every address, the key with it', () => {
    expect(
      withoutAddressSecrets(
        'GET https://api.legiscan.com/?key=SECRET&op=getDatasetList&state=AK failed',
      ),
    ).toBe('GET https://api.legiscan.com/?… failed');
    expect(withoutAddressSecrets('no address here')).toBe('no address here');
  });

  it("scrubs a fetch breadcrumb's url and message", () => {
    const crumb = scrubBreadcrumb({
      category: 'fetch',
      message: 'https://api.legiscan.com/?key=SECRET',
      data: { url: 'https://api.legiscan.com/?key=SECRET&op=getDataset', status_code: 200 },
    });
    expect(JSON.stringify(crumb)).not.toContain('SECRET');
    expect(crumb.data.status_code).toBe(200);
    expect(crumb.category).toBe('fetch');
  });

  it("scrubs a console breadcrumb's arguments, however deep", () => {
    const line =
      'opened https://docket.example/public-link/abc#k=a2V5 via https://x.example/?key=SECRET';
    const crumb = scrubBreadcrumb({
      category: 'console',
      message: line,
      data: { arguments: [line, { nested: [line] }, 3, null], logger: 'console' },
    });
    expect(JSON.stringify(crumb)).not.toMatch(/a2V5|SECRET/);
    expect(crumb.data.arguments[2]).toBe(3);
    const cyclic: Record<string, unknown> = { url: line };
    cyclic.self = cyclic;
    expect(JSON.stringify(withoutAddressSecretsDeep(cyclic), null, 0)).not.toMatch(/a2V5|SECRET/);
  });

  it("takes a public link's key out of an address, a path and an encoded address", () => {
    const key = 'c2VjcmV0LWxpbmsta2V5LTEyMzQ1Njc4OTA';
    const said = withoutAddressSecrets(
      `opened https://docket.example/public-link/abc#k=${key} from /public-link/abc#k=${key} ` +
        `(callback=https%3A%2F%2Fdocket.example%2Fpublic-link%2Fabc%23k%3D${key}&x=1)`,
    );
    expect(said).not.toContain(key);
    expect(said).toContain('https://docket.example/public-link/abc#k=…');
    expect(said).toContain('/public-link/abc#k=…');
    expect(said).toContain('&x=1');
  });

  it("keeps a link key out of a session recording's events, and leaves others alone", () => {
    const key = 'a2V5LWluLWEtcmVjb3JkaW5n';
    const meta = { type: 4, data: { href: `https://docket.example/public-link/abc#k=${key}` } };
    const scrubbed = scrubRecordingEvent(meta);
    expect(JSON.stringify(scrubbed)).not.toContain(key);
    expect(scrubbed.data.href).toBe('https://docket.example/public-link/abc#k=…');
    // A recorded stylesheet's query ends in an escaped quote: the JSON stays readable.
    const styled = {
      type: 2,
      data: { css: 'url("https://fonts.example/?f=a")', href: meta.data.href },
    };
    expect(scrubRecordingEvent(styled).data.css).toBe(styled.data.css);
    expect(withoutLinkKeys(JSON.stringify(meta))).not.toContain(key);
    const plain = { type: 3, data: { source: 2 } };
    expect(scrubRecordingEvent(plain)).toBe(plain);
  });
});
