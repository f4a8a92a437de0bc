import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../encoding/text-bytes.ts';
import { fixturesRoot, readFixtures, readSamples } from '../test-support/test-files.ts';
import { decodeXmlEntities } from '../text/xml-text.ts';
import { readXmlTree } from './xml-element-tree.ts';

// The reader replaced fast-xml-parser in the BILLSTATUS importer for speed; these tests hold it
// to the tree fast-xml-parser gives with the importer's old options, on real files and on
// generated documents, and to refusing what the validator refused.

const LISTS = new Set(['item', 'summary', 'recordedVote']);
const reference = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => LISTS.has(name),
  entityDecoder: {
    setExternalEntities: () => undefined,
    addInputEntities: () => undefined,
    reset: () => undefined,
    setXmlVersion: () => undefined,
    decode: decodeXmlEntities,
  },
});

// The corpus of scripts/make-corpus.mjs (16,522 BILLSTATUS files of the 116th Congress, about a
// minute with fast-xml-parser's share): run only when asked,
//   DOCKET_CORPUS=../corpus npx vitest run --project core packages/core/src/importers/xml-element-tree
// Core is compiled without Node's types, so its few file calls are typed here.
const nodeHost = globalThis as unknown as {
  process: { env: Record<string, string | undefined>; getBuiltinModule(id: string): unknown };
};
const corpusRoot = nodeHost.process.env.DOCKET_CORPUS ?? null;

interface CorpusFs {
  readFileSync(path: string): Uint8Array;
  readdirSync(
    path: string,
    options: { withFileTypes: true },
  ): { name: string; isDirectory(): boolean }[];
}

function corpusPaths(fs: CorpusFs, folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return corpusPaths(fs, path);
    return entry.name.endsWith('.xml') ? [path] : [];
  });
}

function tree(text: string): unknown {
  const read = readXmlTree(text, LISTS);
  if (!read.ok) throw new Error(read.reason);
  return read.document;
}

describe('readXmlTree', () => {
  it('gives the tree fast-xml-parser gives for the BILLSTATUS samples', () => {
    for (const file of readSamples('billstatus')) {
      const text = decodeUtf8(file.bytes);
      expect(tree(text), file.name).toEqual(reference.parse(text));
    }
  });

  // Real files from ../shared/fixtures: skipped only where that folder is absent (a checkout
  // without shared/ beside it); CI always has it.
  it.skipIf(fixturesRoot === null)('gives the same tree for every real BILLSTATUS fixture', () => {
    const files = [...readFixtures('billstatus-xml-116'), ...readFixtures('billstatus-samples')];
    expect(files.length).toBeGreaterThan(150);
    for (const file of files) {
      const text = decodeUtf8(file.bytes);
      expect(tree(text), file.name).toEqual(reference.parse(text));
    }
  });

  // The 16,522 files of scripts/make-corpus.mjs take minutes to read: run only when asked,
  // DOCKET_CORPUS=../corpus npx vitest run --project core xml-element-tree
  it.skipIf(corpusRoot === null)(
    'gives the same tree, byte for byte as JSON, for every BILLSTATUS file of the corpus',
    () => {
      const fs = nodeHost.process.getBuiltinModule('node:fs') as CorpusFs;
      const paths = corpusPaths(fs, `${corpusRoot ?? ''}/billstatus-116`);
      expect(paths.length).toBe(16_522);
      let differing = 0;
      for (const path of paths) {
        const text = decodeUtf8(fs.readFileSync(path));
        const ours = JSON.stringify(tree(text));
        if (ours !== JSON.stringify(reference.parse(text))) {
          differing++;
          expect.soft(ours, path).toBe(JSON.stringify(reference.parse(text)));
        }
      }
      expect(differing).toBe(0);
    },
    10 * 60_000,
  );

  it('reads lists, empty elements, CDATA, references, comments and attributes', () => {
    expect(
      tree(
        '<?xml version="1.0"?>\n<!-- c --><a x="1>" y=\'2\'><item>one</item><b/><c></c>' +
          '<d> <![CDATA[ <p>&amp;</p> ]]> </d><e>&#8212;&amp;#8212; &bogus;</e><e>2</e></a>',
      ),
    ).toEqual({
      a: { item: ['one'], b: '', c: '', d: ' <p>&amp;</p> ', e: ['\u2014&#8212; &bogus;', '2'] },
    });
  });

  it.each([
    ['<a><b>x</b>\n<c>', 'XML cut short: the file ends at line 2 with <a>, <c> still open'],
    ['<a><b>x</b', 'XML cut short: the file ends at line 1 in the middle of its markup'],
    ['<a x="1', 'XML cut short: the file ends at line 1 in the middle of its markup'],
    [
      '<a>\n<b>x</c></a>',
      "Malformed XML at line 2: expected the end tag of 'b' (opened at line 2)",
    ],
    ['<a>x</a>junk', 'Malformed XML at line 1: text after the root element'],
    ['<a>x</a><b/>', "Malformed XML at line 1: a second root element '<b>'"],
    ['<a x="<">y</a>', "Malformed XML at line 1: '<' inside an attribute value"],
    ['<a x=1>y</a>', 'Malformed XML at line 1: attribute value not quoted'],
    ['<a>\n<1b>y</1b></a>', "Malformed XML at line 2: Tag '<1b>' is an invalid name"],
    [
      '<a>\n<b\u001b[2J>y</b></a>',
      "Malformed XML at line 2: Tag '<b\\u001b[2J>' is an invalid name",
    ],
    ['   ', 'Malformed XML at line 1: no root element'],
    ['<!DOCTYPE a><a/>', 'XML with a DOCTYPE is not read (entities are refused for safety)'],
  ])('refuses %j: %s', (text, reason) => {
    const read = readXmlTree(text, LISTS);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.reason.startsWith(reason), read.reason).toBe(true);
  });

  it('agrees with fast-xml-parser on generated documents, and refuses what its validator refuses', () => {
    const name = fc.constantFrom('a', 'b', 'item', 'summary', 'x-y', 'n.1', 'ns:c');
    const text = fc
      .array(fc.constantFrom('t', ' ', '\n', '&amp;', '&#233;', '&#x2014;', 'é', '>', '"'), {
        maxLength: 6,
      })
      .map((parts) => parts.join(''));
    const element: fc.Memo<string> = fc.memo((depth) =>
      fc
        .tuple(
          name,
          depth <= 1
            ? text
            : fc.oneof(
                text,
                fc
                  .array(element(depth - 1), { minLength: 1, maxLength: 4 })
                  .map((children) => children.join('\n  ')),
              ),
          fc.boolean(),
        )
        .map(([tag, content, attribute]) =>
          content === '' && attribute
            ? `<${tag} k="v"/>`
            : `<${tag}${attribute ? ' k="v>"' : ''}>${content}</${tag}>`,
        ),
    );
    fc.assert(
      fc.property(element(4), (document) => {
        expect(tree(document)).toEqual(reference.parse(document));
      }),
      { numRuns: 300 },
    );
    // Cut anywhere, or with one character changed, a document is read as the validator judges it.
    fc.assert(
      fc.property(
        element(4),
        fc.nat(),
        fc.constantFrom('', '<', '>', '/', '&', 'x'),
        (document, at, put) => {
          const cut = at % document.length;
          const damaged = document.slice(0, cut) + put + document.slice(cut + 1);
          const read = readXmlTree(damaged, LISTS);
          // The reader is the stricter of the two (a '&' that begins no reference, a second root
          // element): what the validator refuses it refuses, and what it reads it reads alike.
          // The validator the importer used before this reader (fast-xml-parser 5.12 still ships it).
          // eslint-disable-next-line @typescript-eslint/no-deprecated
          if (XMLValidator.validate(damaged) !== true) expect(read.ok, damaged).toBe(false);
          if (read.ok) expect(read.document, damaged).toEqual(reference.parse(damaged));
        },
      ),
      { numRuns: 500 },
    );
  });
});
