import Ajv from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import type { Annotation } from '../store/local-records.ts';
import { storedBill } from '../test-support/bill-command-harness.ts';
import { readSamples } from '../test-support/test-files.ts';
import { decodeUtf8 } from '../encoding/text-bytes.ts';
import { snapshotToJsonLd } from '../export/user-data-export.ts';

// The W3C Web Annotation Working Group's own conformance tests (w3c/web-annotation-tests, the
// suite web-platform-tests runs; BSD-3-Clause, see test-samples/w3c-web-annotation-tests): JSON
// Schemas (draft-04), one per MUST of the model, listed by the annotation, collection and page
// "Musts" tests. Every one of them must hold for a real export: each annotation, the
// collection, and its page as they would stand alone.

const SUITE = 'w3c-web-annotation-tests';

interface Assertion {
  readonly id: string;
  readonly expectedResult?: 'valid' | 'invalid';
  readonly errorMessage?: string;
}

function suiteFiles(): Map<string, unknown> {
  return new Map(
    readSamples(SUITE)
      .filter((file) => /\.(?:json|test)$/.test(file.name))
      .map((file) => [
        file.name.slice(SUITE.length + 1),
        JSON.parse(decodeUtf8(file.bytes)) as unknown,
      ]),
  );
}

/** Runs one "Musts" test of the suite over a document: the assertions that do not hold. */
function failedMusts(files: Map<string, unknown>, test: string, document: unknown): string[] {
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
  for (const [name, schema] of files) {
    if (name.startsWith('definitions/')) ajv.addSchema(schema as object);
  }
  const { assertions } = files.get(test) as { assertions: string[] };
  expect(assertions.length).toBeGreaterThan(5);
  return assertions.flatMap((path) => {
    const schema = files.get(path) as Assertion & object;
    const valid = ajv.validate(schema, document);
    const expected = (schema.expectedResult ?? 'valid') === 'valid';
    return valid === expected ? [] : [`${schema.id}: ${schema.errorMessage ?? 'failed'}`];
  });
}

const TEXT = 'Café 𝕏 rules 🏛 for the tenant, who pays the rent on time, and the landlord.';

function annotationOn(id: string, exact: string, note: string, target = 'summary'): Annotation {
  const start = TEXT.indexOf(exact);
  return {
    id,
    billId: 'us/119/hr-7',
    quote: {
      exact,
      prefix: TEXT.slice(Math.max(0, start - 8), start),
      suffix: TEXT.slice(start + exact.length, start + exact.length + 8),
    },
    position: { start, end: start + exact.length },
    target,
    color: '#ffd54f',
    note,
    createdAt: '2025-01-15T12:00:00.000Z',
    updatedAt: '2025-01-16T12:00:00.000Z',
  };
}

describe('the JSON-LD export against the W3C annotation-model conformance tests', () => {
  const files = suiteFiles();
  const bill = storedBill(7, { summary: TEXT });
  const annotations = [
    annotationOn('a-1', 'tenant', 'Who counts as a tenant? <b>"quoted"</b>, =SUM(A1)'),
    annotationOn('a-2', 'rules 🏛', ''),
    annotationOn('a-3', 'landlord', 'עברית and 𝕏 in a note'),
    annotationOn('a-4', 'Café', 'First word.'),
  ];
  const exported = JSON.parse(
    snapshotToJsonLd(
      {
        selection: 'all',
        bills: [bill],
        tags: [],
        billTags: [],
        positions: [],
        decisions: [],
        annotations,
      },
      '2025-02-01T10:00:00.000Z',
    ),
  ) as { first: { items: unknown[] } & Record<string, unknown> } & Record<string, unknown>;

  it('every annotation passes every MUST, on its own', () => {
    expect(exported.first.items).toHaveLength(4);
    for (const item of exported.first.items) {
      expect(failedMusts(files, 'annotations/annotationMusts.test', item)).toEqual([]);
    }
  });

  it('the collection passes every MUST', () => {
    expect(failedMusts(files, 'collections/collectionMusts.test', exported)).toEqual([]);
  });

  it('its page passes every MUST, taken out of the collection', () => {
    expect(failedMusts(files, 'collections/pages/pageMusts.test', exported.first)).toEqual([]);
  });

  it('fails an annotation without its own context, as the suite does', () => {
    const bare = { ...(exported.first.items[0] as Record<string, unknown>) };
    delete bare['@context'];
    expect(failedMusts(files, 'annotations/annotationMusts.test', bare)).toEqual([
      expect.stringMatching(/^3\.1-annotationContextValidated\.json: /),
    ]);
  });
});
