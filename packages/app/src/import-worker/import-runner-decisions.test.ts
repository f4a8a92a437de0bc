import { describe, expect, it } from 'vitest';
import { lookedAtSince, type SaveDatasetRequest, savedDatasetSource } from './import-runner.ts';

const request = (overrides: Partial<SaveDatasetRequest> = {}): SaveDatasetRequest => ({
  name: 'Bills',
  url: '',
  jurisdiction: 'US',
  session: '2025',
  files: [],
  ...overrides,
});

const file = { id: 'hash-1', name: 'bills.csv', bytes: new Uint8Array([1]) };

describe('savedDatasetSource', () => {
  it('names LegiScan with the state upper-cased and the session parsed', () => {
    expect(
      savedDatasetSource(
        request({ sourceKind: 'legiscan', legiscanState: ' ca ', legiscanSession: '2150' }),
        [],
      ),
    ).toEqual({ kind: 'legiscan', state: 'CA', sessionId: 2150 });
  });

  it('names LegiScan session 0 when the session is not a number', () => {
    expect(savedDatasetSource(request({ sourceKind: 'legiscan' }), [])).toEqual({
      kind: 'legiscan',
      state: '',
      sessionId: 0,
    });
  });

  it('names Open States with its jurisdiction and session', () => {
    expect(
      savedDatasetSource(
        request({
          sourceKind: 'openstates',
          openstatesJurisdiction: 'ocd-jurisdiction/country:us/state:ca/government',
          openstatesSession: '20252026',
        }),
        [file],
      ),
    ).toEqual({
      kind: 'openstates',
      jurisdiction: 'ocd-jurisdiction/country:us/state:ca/government',
      session: '20252026',
    });
  });

  it('names GovInfo and congress.gov with the Congress and bill type as parsed', () => {
    const typed = { congress: '119', billType: 'hr' };
    const govinfo = savedDatasetSource(request({ sourceKind: 'govinfo', ...typed }), []);
    const congress = savedDatasetSource(request({ sourceKind: 'congress', ...typed }), []);
    expect(govinfo).toEqual({ kind: 'govinfo', congress: 119, billType: 'hr' });
    expect(congress).toEqual({ kind: 'congress', congress: 119, billType: 'hr' });
  });

  it('prefers picked files to a URL, a URL to nothing, and nothing is "unchanged"', () => {
    expect(savedDatasetSource(request({ url: 'https://example.test/a.csv' }), [file])).toEqual({
      kind: 'files',
      files: [file],
    });
    expect(savedDatasetSource(request({ url: '  https://example.test/a.csv ' }), [])).toEqual({
      kind: 'url',
      url: 'https://example.test/a.csv',
    });
    expect(savedDatasetSource(request({ url: '   ' }), [])).toEqual({ kind: 'unchanged' });
  });
});

describe('lookedAtSince', () => {
  const lastJobOf = new Map([['job-1', { finishedAt: '2025-01-02T00:00:00.000Z' }]]);

  it('finds nothing fresh without staleBefore', () => {
    const dataset = { lastImportAt: '2025-01-03T00:00:00.000Z', lastJobId: null };
    expect(lookedAtSince(dataset, lastJobOf, undefined)).toBe(false);
  });

  it('counts an import at or after staleBefore', () => {
    const dataset = { lastImportAt: '2025-01-02T00:00:00.000Z', lastJobId: null };
    expect(lookedAtSince(dataset, lastJobOf, '2025-01-02T00:00:00.000Z')).toBe(true);
    expect(lookedAtSince(dataset, lastJobOf, '2025-01-02T00:00:00.001Z')).toBe(false);
  });

  it('counts the last job finished after staleBefore, even without an import', () => {
    const dataset = { lastImportAt: null, lastJobId: 'job-1' };
    expect(lookedAtSince(dataset, lastJobOf, '2025-01-01T00:00:00.000Z')).toBe(true);
    expect(lookedAtSince(dataset, lastJobOf, '2025-01-03T00:00:00.000Z')).toBe(false);
  });

  it('finds a dataset never looked at stale', () => {
    const dataset = { lastImportAt: null, lastJobId: 'job-gone' };
    expect(lookedAtSince(dataset, lastJobOf, '2025-01-01T00:00:00.000Z')).toBe(false);
  });
});
