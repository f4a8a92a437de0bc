import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv, parseCsvTable, toCsv } from './csv-table.ts';

describe('CSV', () => {
  it('reads quotes, doubled quotes, line breaks in cells and all line ends', () => {
    expect(parseCsv('a,"b ""c"", d"\r\n"multi\nline",\n\nlast,x\rcr,y').records).toEqual([
      { line: 1, cells: ['a', 'b "c", d'] },
      { line: 2, cells: ['multi\nline', ''] },
      { line: 5, cells: ['last', 'x'] },
      { line: 6, cells: ['cr', 'y'] },
    ]);
  });

  it('reports a quoted field that never closes', () => {
    expect(parseCsv('a,b\n"open,c\nd,e\n')).toEqual({
      records: [{ line: 1, cells: ['a', 'b'] }],
      problems: [{ line: 2, reason: 'a quoted field is never closed' }],
    });
  });

  it('keys rows by header and reports rows of the wrong width', () => {
    const table = parseCsvTable(' Identifier ,Title\nHB 1,One\nHB 2\n');
    expect(table.header).toEqual(['identifier', 'title']);
    expect(table.rows.map((row) => Object.fromEntries(row.values))).toEqual([
      { identifier: 'HB 1', title: 'One' },
    ]);
    expect(table.problems).toEqual([{ line: 3, reason: 'has 1 cells where the header has 2' }]);
  });

  it('reads back whatever it writes', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', '\r', ' ', 'é') });
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 5 }),
        (rows) => {
          const nonBlank = rows.filter((row) => !(row.length === 1 && row[0] === ''));
          expect(parseCsv(toCsv(nonBlank)).records.map((record) => record.cells)).toEqual(nonBlank);
        },
      ),
    );
  });
});
