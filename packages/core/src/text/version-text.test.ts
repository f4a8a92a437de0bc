import { diffWordsWithSpace } from 'diff';
import { describe, expect, it } from 'vitest';
import { decodeBase64 } from '../encoding/base64.ts';
import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';
import { fixturesRoot, readFixtures } from '../test-support/test-files.ts';
import { describeSelection } from './text-anchoring.ts';
import { annotationTargets, placeOnOtherVersion } from './annotation-targets.ts';
import { compareTexts } from './version-diff.ts';
import {
  markupVersionText,
  sniffVersionFormat,
  textPieces,
  withFetchedTexts,
} from './version-text.ts';

// GovInfo's HTML of a bill: the Government Publishing Office's text edition inside one <pre>,
// as https://www.govinfo.gov/content/pkg/BILLS-…/html/BILLS-….htm serves it (shortened).
const govInfoHtml = `<html><body><pre>
[Congressional Bills 118th Congress]
[From the U.S. Government Publishing Office]
[H.R. 1 Introduced in House (IH)]

&lt;DOC&gt;
118th CONGRESS
  1st Session
                                 H. R. 1

To lower energy costs by increasing American energy production.

_______________________________________________________________________

    Be it enacted by the Senate and House of Representatives of the
United States of America in Congress assembled,

SECTION 1. SHORT TITLE; TABLE OF CONTENTS.

    (a) Short Title.--This Act may be cited as the \`\`Lower Energy Costs
Act''.

                 DIVISION A--COMMITTEE ON NATURAL RESOURCES

                  TITLE I--ONSHORE OIL AND GAS LEASING

SEC. 10001. ONSHORE OIL AND GAS LEASE SALES.

    The Secretary shall conduct quarterly lease sales in each State.
</pre></body></html>`;

const headingsOf = (text: { text: string; headings: { start: number; end: number }[] }) =>
  text.headings.map((heading) => text.text.slice(heading.start, heading.end));

function structured(bytes: Uint8Array) {
  const format = sniffVersionFormat(bytes);
  if (format === null || format === 'pdf') throw new Error(`not markup: ${format}`);
  const result = markupVersionText(bytes, format);
  if (!result.ok) throw new Error(result.reason);
  return result.text;
}

describe('a fetched version made structured text', () => {
  it('keeps the sections and headings of GovInfo HTML', () => {
    const bytes = encodeUtf8(govInfoHtml);
    expect(sniffVersionFormat(bytes)).toBe('html');
    const text = structured(bytes);
    expect(text.text).toContain('<DOC>');
    expect(text.text).not.toContain('<pre>');
    expect(headingsOf(text)).toEqual([
      'SECTION 1. SHORT TITLE; TABLE OF CONTENTS.',
      'DIVISION A--COMMITTEE ON NATURAL RESOURCES',
      'TITLE I--ONSHORE OIL AND GAS LEASING',
      'SEC. 10001. ONSHORE OIL AND GAS LEASE SALES.',
    ]);
    const pieces = textPieces(text.text, text.headings);
    expect(pieces.filter((piece) => piece.heading)).toHaveLength(4);
    expect(text.text.slice(pieces[pieces.length - 1]?.start)).toContain('quarterly lease sales');
    // The pieces cover the text exactly, in order.
    expect(pieces.map((piece) => text.text.slice(piece.start, piece.end)).join('')).toBe(text.text);
  });

  it('keeps the headers of bill XML (GovInfo, congress.gov) with their numbers', () => {
    const xml = `<?xml version="1.0"?>
<!DOCTYPE bill PUBLIC "-//US Congress//DTDs/bill.dtd//EN" "bill.dtd">
<bill><metadata><dublinCore>ignored</dublinCore></metadata>
<form><congress>118th CONGRESS</congress><official-title>To lower energy costs.</official-title></form>
<legis-body><section id="s1"><enum>1.</enum><header>Short title</header><text>This Act may be
cited as the <quote>Lower Energy Costs Act</quote>.</text></section>
<section><enum>2.</enum><header>Definitions</header><text>In this Act:</text>
<paragraph><enum>(1)</enum><header>Secretary</header><text>The term &#8220;Secretary&#8221; means the Secretary of the Interior.</text></paragraph></section></legis-body></bill>`;
    const text = structured(encodeUtf8(xml));
    expect(text.text).not.toContain('ignored');
    expect(text.text).toContain('This Act may be cited as the Lower Energy Costs Act.');
    expect(text.text).toContain('“Secretary”');
    expect(headingsOf(text)).toEqual(['1. Short title', '2. Definitions', '(1) Secretary']);
  });

  it('takes a sentence after a section number as the body, not the heading (a LegiScan text)', () => {
    if (fixturesRoot === null) return;
    const [file] = readFixtures('legiscan/text/101038.json');
    if (file === undefined) throw new Error('fixture absent');
    const { text: document } = JSON.parse(decodeUtf8(file.bytes)) as { text: { doc: string } };
    const bytes = decodeBase64(document.doc);
    if (bytes === null) throw new Error('not base64');
    const text = structured(bytes);
    expect(headingsOf(text)).toEqual(expect.arrayContaining(['SECTION 1.', 'SEC. 2.', 'SEC. 3.']));
  });

  it('refuses what is not text', () => {
    expect(sniffVersionFormat(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0]))).toBeNull();
    expect(sniffVersionFormat(new Uint8Array())).toBeNull();
    expect(sniffVersionFormat(encodeUtf8('%PDF-1.4\n'))).toBe('pdf');
    expect(sniffVersionFormat(encodeUtf8('AN ACT relating to libraries.'))).toBe('text');
  });
});

describe('comparing versions', () => {
  it('marks the changed sentence and nothing else', () => {
    const older =
      'SEC. 2. HOURS.\nEvery library shall stay open until nine in the evening.\nSEC. 3. EFFECT.';
    const newer =
      'SEC. 2. HOURS.\nEvery library shall stay open until ten in the evening.\nSEC. 3. EFFECT.';
    const diff = compareTexts(older, newer, diffWordsWithSpace);
    expect(diff.runs.filter((run) => run.kind !== 'same')).toEqual([
      { kind: 'removed', text: 'nine' },
      { kind: 'added', text: 'ten' },
    ]);
    expect(diff).toMatchObject({ addedWords: 1, removedWords: 1 });
    expect(
      diff.runs
        .filter((run) => run.kind !== 'removed')
        .map((run) => run.text)
        .join(''),
    ).toBe(newer);
  });
});

describe('annotations across versions', () => {
  const introduced =
    'SEC. 1. SHORT TITLE.\nThis Act may be cited as the Library Hours Act.\nSEC. 2. HOURS.\nEvery public library shall stay open until nine in the evening on weekdays.';
  const engrossed =
    'SEC. 1. SHORT TITLE.\nThis Act may be cited as the Library Hours Act of 2023.\nSEC. 2. DEFINITIONS.\nIn this Act, a library is a public library.\nSEC. 3. HOURS.\nEvery public library shall stay open until nine in the evening on weekdays.';
  const url = (n: number) => `https://example.test/hb4242-v${n}.htm`;
  const bill = withFetchedTexts(
    {
      title: 'Library hours',
      summary: null,
      texts: [1, 2].map((n) => ({
        date: null,
        type: n === 1 ? 'Introduced' : 'Engrossed',
        url: url(n),
        mimeType: null,
        text: null,
      })),
    },
    [
      { index: 0, url: url(1), text: introduced },
      { index: 1, url: url(2), text: engrossed },
    ],
  );

  it('are made on fetched text', () => {
    expect(annotationTargets(bill).map((option) => option.target)).toEqual(['text:0', 'text:1']);
  });

  it('are placed on the next version where the passage moved', () => {
    const passage = 'stay open until nine in the evening';
    const start = introduced.indexOf(passage);
    const annotation = {
      target: 'text:0',
      ...describeSelection(introduced, start, start + passage.length),
    };
    const range = placeOnOtherVersion(bill, annotation, 'text:1');
    expect(range).not.toBeNull();
    expect(engrossed.slice(range?.start, range?.end)).toBe(passage);
    expect(placeOnOtherVersion(bill, annotation, 'text:0')).toBeNull();
  });

  it('are not placed on a version without the passage, nor on a copy of another URL', () => {
    const passage = 'Library Hours Act.';
    const start = introduced.indexOf(passage);
    const annotation = {
      target: 'text:0',
      ...describeSelection(introduced, start, start + passage.length - 1),
    };
    const stale = withFetchedTexts(
      { title: 't', summary: null, texts: bill.texts.map((v) => ({ ...v, text: null })) },
      [{ index: 1, url: 'https://example.test/other.htm', text: engrossed }],
    );
    expect(stale.texts[1]?.text).toBeNull();
    expect(placeOnOtherVersion(stale, annotation, 'text:1')).toBeNull();
  });
});
