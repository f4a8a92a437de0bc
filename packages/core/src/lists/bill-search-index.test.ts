import { describe, expect, it } from 'vitest';
import type { SearchableBill } from './bill-search-index.ts';
import { BillSearchIndex, foldText, identifierKey, searchTokens } from './bill-search-index.ts';

function sjres1(): SearchableBill {
  return {
    identifier: 'S.J.Res. 1',
    type: 'sjres',
    number: '1',
    title: 'A joint resolution proposing an amendment relating to equal rights.',
    summary: 'This joint resolution removes the deadline for ratification of the amendment.',
    subjects: ['Constitution and constitutional amendments', 'Women’s rights'],
    sponsors: [{ name: 'Sen. Cardin, Benjamin L. [D-MD]' }],
    cosponsors: [{ name: 'Sen. Murkowski, Lisa [R-AK]' }],
    actions: [{ text: 'Read twice and referred to the Committee on the Judiciary.' }],
  };
}

function indexOf(bills: readonly SearchableBill[]): BillSearchIndex {
  const index = new BillSearchIndex();
  bills.forEach((bill, doc) => {
    index.add(doc, bill);
  });
  return index;
}

describe('folding and tokens', () => {
  it('ignores case and diacritics', () => {
    expect(foldText('Équité ÅSA Straße')).toBe('equite asa straße');
    expect(searchTokens('Réforme de l’Assurance-Maladie')).toEqual([
      'reforme',
      'de',
      'l',
      'assurance',
      'maladie',
    ]);
  });

  it('cuts very long words', () => {
    const [token] = searchTokens('x'.repeat(100_000));
    expect(token).toHaveLength(40);
  });

  it('reads identifiers however they are written', () => {
    for (const written of ['S.J.Res. 1', 'sjres 1', 'SJRES1', 'S. J. Res. 1', 'sj-res 01']) {
      expect(identifierKey(written)).toBe('sjres1');
    }
    expect(identifierKey('H.R. 100')).toBe('hr100');
    for (const written of ['HB 1', 'hb1', 'HB0001', 'H.B. No. 1', 'House Bill 1', 'hb #1']) {
      expect(identifierKey(written), written).toBe('hb1');
    }
    expect(identifierKey('SB 2-A')).toBe('sb2a');
    const wyoming = indexOf([
      sjres1(),
      { ...sjres1(), identifier: 'HB 1', type: 'hb', number: '1', title: 'Water rights.' },
    ]);
    for (const written of ['HB0001', 'H.B. No. 1', 'House Bill 1']) {
      expect(wyoming.search(written), written).toEqual([1]);
    }
    expect(identifierKey('climate change')).toBeNull();
    expect(identifierKey('hr 1 climate')).toBeNull();
  });
});

describe('BillSearchIndex', () => {
  const other = { ...sjres1(), identifier: 'S.J.Res. 10', number: '10', title: 'Other' };
  const plain: SearchableBill = {
    identifier: 'H.R. 5',
    type: 'hr',
    number: '5',
    title: 'Housing affordability',
    summary: null,
    subjects: [],
    sponsors: [],
    cosponsors: [],
    actions: [],
  };

  it('finds a bill by a word of its summary, sponsor, subject or action text', () => {
    const index = indexOf([sjres1(), plain]);
    expect(index.search('ratification ')).toEqual([0]);
    expect(index.search('murkowski ')).toEqual([0]);
    expect(index.search('constitutional ')).toEqual([0]);
    expect(index.search('judiciary ')).toEqual([0]);
    expect(index.search('housing ')).toEqual([1]);
  });

  it('finds a bill by its identifier typed as people type it, and only that bill', () => {
    const index = indexOf([sjres1(), other, plain]);
    expect(index.search('sjres 1')).toEqual([0]);
    expect(index.search('S.J.Res. 1')).toEqual([0]);
    expect(index.search('SJRES10')).toEqual([1]);
    expect(index.search('sjres')).toEqual([0, 1]);
    expect(index.search('hr 5')).toEqual([2]);
  });

  it('matches the word being typed as a prefix, the words before it whole', () => {
    const index = indexOf([sjres1(), plain]);
    expect(index.search('ratif')).toEqual([0]);
    expect(index.search('ratif ')).toEqual([]);
    expect(index.search('hous afford')).toEqual([]);
    expect(index.search('housing afford')).toEqual([1]);
    expect(index.search('CARDIN équal')).toEqual([0]);
  });

  it('needs every word', () => {
    const index = indexOf([sjres1(), plain]);
    expect(index.search('amendment housing')).toEqual([]);
    expect(index.search('amendment deadline')).toEqual([0]);
  });

  it('has no search for a query without words', () => {
    const index = indexOf([plain]);
    expect(index.search('')).toBeNull();
    expect(index.search('  …  ')).toBeNull();
  });

  it('forgets a removed document, also after compacting', () => {
    const index = new BillSearchIndex({ compactAfter: 100 });
    index.add(0, sjres1());
    index.add(1, plain);
    index.remove(0);
    expect(index.size).toBe(1);
    expect(index.search('ratification')).toEqual([]);
    expect(index.search('sjres 1')).toEqual([]);
    // Enough churn to compact several times: the answers stay right.
    for (let doc = 2; doc < 3000; doc++) {
      index.add(doc, {
        ...plain,
        identifier: `H.R. ${doc}`,
        number: String(doc),
        title: `Word${doc % 7}`,
        summary: 'housing',
      });
      if (doc > 2) index.remove(doc - 1);
    }
    expect(index.search('housing')).toEqual([1, 2999]);
    expect(index.search('hr 2999')).toEqual([2999]);
  });

  it('refuses a document number twice', () => {
    const index = indexOf([plain]);
    expect(() => {
      index.add(0, plain);
    }).toThrow(/already indexed/);
  });
});
