import { describe, expect, it } from 'vitest';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import { openStatesBillsUrl, openStatesRefusal, parseOpenStatesPage } from './openstates-api.ts';

const bytes = (value: unknown) => encodeUtf8(JSON.stringify(value));

describe('Open States API v3', () => {
  it('asks /bills for a session with the includes, a page and, on a refresh, updated_since', () => {
    expect(openStatesBillsUrl('North Carolina', '2025', 3, null)).toBe(
      'https://v3.openstates.org/bills?jurisdiction=North%20Carolina&session=2025&include=actions&include=sponsorships&include=votes&include=versions&include=sources&per_page=20&page=3',
    );
    expect(openStatesBillsUrl('ak', '33', 1, '2026-01-02T03:04:05.000Z')).toContain(
      '&session=33&updated_since=2026-01-02T03%3A04%3A05.000Z&include=actions',
    );
  });

  it('reads a page’s bills and its last page', () => {
    expect(
      parseOpenStatesPage(
        bytes({
          results: [{}, {}],
          pagination: { per_page: 20, page: 1, max_page: 4, total_items: 62 },
        }),
      ),
    ).toEqual({ bills: 2, maxPage: 4 });
    expect(() => parseOpenStatesPage(bytes({ detail: 'Not Found' }))).toThrow(
      'Open States answered the list of bills with something Docket cannot read.',
    );
  });

  it('says a refused key in its words', () => {
    expect(openStatesRefusal(401, bytes({ detail: 'Invalid API Key.' })).message).toBe(
      'Open States refused the API key: Invalid API Key.',
    );
    expect(openStatesRefusal(500, bytes('oops')).message).toBe(
      'Open States answered 500 for the list of bills.',
    );
  });
});
