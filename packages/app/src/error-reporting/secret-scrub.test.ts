import { describe, expect, it } from 'vitest';
import { scrubBreadcrumb, withoutQueryStrings } from './secret-scrub.ts';

describe('reports keep no query string', () => {
  it('takes the query out of every address, the key with it', () => {
    expect(
      withoutQueryStrings(
        'GET https://api.legiscan.com/?key=SECRET&op=getDatasetList&state=AK failed',
      ),
    ).toBe('GET https://api.legiscan.com/?… failed');
    expect(withoutQueryStrings('no address here')).toBe('no address here');
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
});
