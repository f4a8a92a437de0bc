import { describe, expect, it } from 'vitest';
import {
  parseBillType,
  parseCongress,
  parseLegiscanSessionId,
  validateApiSourceForm,
} from './api-source-form.ts';

const blank = {
  sourceKind: 'files-or-url' as const,
  legiscanState: '',
  legiscanSession: '',
  openstatesJurisdiction: '',
  openstatesSession: '',
  congress: '',
  billType: '',
};

describe("the add-dataset form's API fields", () => {
  it('asks nothing of files or a URL', () => {
    expect(validateApiSourceForm(blank)).toEqual({});
  });

  it("takes LegiScan's state as a postal code and its session_id as a number", () => {
    expect(
      validateApiSourceForm({
        ...blank,
        sourceKind: 'legiscan',
        legiscanState: 'ak',
        legiscanSession: ' 1843 ',
      }),
    ).toEqual({});
    expect(
      Object.keys(
        validateApiSourceForm({
          ...blank,
          sourceKind: 'legiscan',
          legiscanState: 'Alaska',
          legiscanSession: '18a',
        }),
      ),
    ).toEqual(['legiscanState', 'legiscanSession']);
    expect(parseLegiscanSessionId('0')).toBeNull();
    expect(parseLegiscanSessionId('1843')).toBe(1843);
  });

  it('asks Open States for a jurisdiction and a session', () => {
    expect(validateApiSourceForm({ ...blank, sourceKind: 'openstates' })).toEqual({
      openstatesJurisdiction:
        'Enter the jurisdiction as Open States names it: "Alaska", "ak" or its ocd-jurisdiction id.',
      openstatesSession:
        'Pick the session, or enter it as Open States names it, such as "2023" or "33".',
    });
  });

  it('asks GovInfo and congress.gov for a Congress and a bill type as they spell them', () => {
    for (const sourceKind of ['govinfo', 'congress'] as const) {
      expect(
        validateApiSourceForm({ ...blank, sourceKind, congress: '118th', billType: 'H.R.' }),
      ).toEqual({});
      expect(
        Object.keys(validateApiSourceForm({ ...blank, sourceKind, congress: '12', billType: 'x' })),
      ).toEqual(['congress', 'billType']);
    }
    expect(parseCongress(' 118 ')).toBe(118);
    expect(parseCongress('92')).toBeNull();
    expect(parseBillType('HJRES')).toBe('hjres');
    expect(parseBillType('H. Con. Res.')).toBe('hconres');
    expect(parseBillType('bill')).toBeNull();
  });
});
