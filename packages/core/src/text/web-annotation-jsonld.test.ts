import { describe, expect, it } from 'vitest';
import type { Annotation } from '../store/local-records.ts';
import {
  annotationToJsonLd,
  annotationsFromJsonLd,
  annotationsToJsonLd,
  codePointOffset,
  DEFAULT_ANNOTATION_COLOUR,
  positionInUtf16,
  utf16Offset,
  WebAnnotationError,
} from './web-annotation-jsonld.ts';

const NOW = '2025-02-01T10:00:00.000Z';
const UUIDS = [
  '3f2c9a57-0b1e-4d6a-9c3e-7a1b2c3d4e5f',
  '8e7d6c5b-4a39-4281-b7f6-e5d4c3b2a190',
  'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
];

/** The export's options with UUIDs handed out in order. */
function exportAt(textOf?: (annotation: Annotation) => string | null) {
  let next = 0;
  return {
    exportedAt: NOW,
    newUuid: () => UUIDS[next++] ?? 'out of UUIDs',
    ...(textOf === undefined ? {} : { textOf }),
  };
}

const annotation: Annotation = {
  id: 'note-1',
  billId: 'us/119/hr-1',
  quote: { exact: 'tenant, "=cmd|x"', prefix: '<img src=x onerror=alert(1)> ', suffix: ' שלום' },
  position: { start: 31, end: 47 },
  target: 'text:0',
  color: '#ffd54f',
  note: 'line one\n"quoted", =SUM(A1)\nעברית',
  createdAt: '2025-01-15T12:00:00.000Z',
  updatedAt: '2025-01-16T12:00:00.000Z',
};

describe('Web Annotation JSON-LD', () => {
  it('writes the model: quote and position selectors, a textual body, a colour class', () => {
    expect(annotationToJsonLd(annotation)).toEqual({
      '@context': 'http://www.w3.org/ns/anno.jsonld',
      id: 'urn:docket:annotation:note-1',
      type: 'Annotation',
      motivation: 'commenting',
      created: annotation.createdAt,
      modified: annotation.updatedAt,
      body: {
        type: 'TextualBody',
        value: annotation.note,
        format: 'text/plain',
        purpose: 'commenting',
      },
      target: {
        source: 'urn:docket:bill:us%2F119%2Fhr-1/text%3A0',
        styleClass: 'docket-colour-ffd54f',
        selector: [
          { type: 'TextQuoteSelector', ...annotation.quote },
          { type: 'TextPositionSelector', start: 31, end: 47 },
        ],
      },
      stylesheet: {
        type: 'CssStylesheet',
        value: '.docket-colour-ffd54f { background-color: #ffd54f; }',
      },
    });
  });

  it('gives the collection and its page fresh urn:uuid ids, and each annotation its context', () => {
    const collection = annotationsToJsonLd([annotation], exportAt()) as {
      id: string;
      first: { id: string; partOf: { id: string }; items: Record<string, unknown>[] };
    };
    expect(collection.id).toBe(`urn:uuid:${UUIDS[0]}`);
    expect(collection.first.id).toBe(`urn:uuid:${UUIDS[1]}`);
    expect(collection.first.partOf.id).toBe(collection.id);
    expect(collection.first.items[0]?.['@context']).toBe('http://www.w3.org/ns/anno.jsonld');
    expect(() => annotationsToJsonLd([], { exportedAt: NOW, newUuid: () => 'device-a-1' })).toThrow(
      'Not a UUID',
    );
  });

  it('names an annotation by its UUID, and reads the UUID back as its id', () => {
    const made = { ...annotation, id: UUIDS[2] ?? '' };
    expect(annotationToJsonLd(made).id).toBe(`urn:uuid:${UUIDS[2]}`);
    const file = JSON.parse(JSON.stringify(annotationsToJsonLd([made], exportAt()))) as unknown;
    expect(annotationsFromJsonLd(file, NOW)).toEqual([made]);
    const foreign = {
      ...annotationToJsonLd(made),
      id: 'URN:UUID:A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D',
    };
    expect(annotationsFromJsonLd(foreign, NOW)[0]?.id).toBe('A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D');
    expect(annotationsFromJsonLd({ ...foreign, id: 'urn:uuid:not-a-uuid' }, NOW)[0]?.id).toBe(null);
  });

  it('counts positions in code points, as the model says, and converts them back', () => {
    // "𝒳" and "🏛" are one code point and two UTF-16 code units each; "é" is one of each, and
    // so is the combining acute accent after the "e" of "Cafe\u0301".
    const text = 'Café 𝒳 rules 🏛 for Cafe\u0301 tenants: the tenant, who pays.';
    const start = text.indexOf('tenant,');
    const made: Annotation = {
      ...annotation,
      quote: { exact: 'tenant', prefix: 'the ', suffix: ', who pays.' },
      position: { start, end: start + 'tenant'.length },
    };
    const written = annotationToJsonLd(made, text) as {
      target: { selector: { type: string; start?: number; end?: number }[] };
    };
    const position = written.target.selector.find((s) => s.type === 'TextPositionSelector');
    expect(position).toEqual({ type: 'TextPositionSelector', start: start - 2, end: start + 4 });
    // eslint-disable-next-line @typescript-eslint/no-misused-spread -- code points are the point here.
    expect([...text].slice(position?.start, position?.end).join('')).toBe('tenant');

    const file = JSON.parse(
      JSON.stringify(
        annotationsToJsonLd(
          [made],
          exportAt(() => text),
        ),
      ),
    ) as unknown;
    const [read] = annotationsFromJsonLd(file, NOW);
    expect(read?.position).toEqual({ start: start - 2, end: start + 4 });
    expect(positionInUtf16(text, read?.position ?? made.position)).toEqual(made.position);
    expect(positionInUtf16(null, { start: 3, end: 9 })).toEqual({ start: 3, end: 9 });
  });

  it('converts offsets both ways, at either end of the text and past it', () => {
    const text = '𝒳é🏛';
    expect([0, 1, 2, 3, 4].map((points) => utf16Offset(text, points))).toEqual([0, 2, 3, 5, 6]);
    for (const units of [0, 2, 3, 5, 6, 9]) {
      expect(utf16Offset(text, codePointOffset(text, units))).toBe(units);
    }
  });

  it('reads back what it wrote, through JSON text, field for field', () => {
    const highlight = { ...annotation, id: 'note-2', note: '', target: 'title' };
    const text = JSON.stringify(annotationsToJsonLd([annotation, highlight], exportAt()));
    expect(annotationsFromJsonLd(JSON.parse(text), NOW)).toEqual([annotation, highlight]);
  });

  it('reads other tools’ spelling of the same model', () => {
    const foreign = {
      '@context': 'http://www.w3.org/ns/anno.jsonld',
      id: 'https://example.org/anno/7',
      type: ['Annotation'],
      body: [{ type: 'TextualBody', value: 'first' }, { value: 'second' }],
      target: {
        source: 'urn:docket:bill:us%2F119%2Fhr-1/title',
        selector: [
          { type: 'TextPositionSelector', start: 0, end: 3 },
          { type: 'TextQuoteSelector', exact: 'A b' },
        ],
      },
    };
    const [read] = annotationsFromJsonLd(foreign, NOW);
    expect(read).toMatchObject({
      id: null,
      billId: 'us/119/hr-1',
      target: 'title',
      note: 'first\n\nsecond',
      color: DEFAULT_ANNOTATION_COLOUR,
      quote: { exact: 'A b', prefix: '', suffix: '' },
      createdAt: NOW,
      updatedAt: NOW,
    });
  });

  it('refuses, naming the annotation, what it cannot place', () => {
    const items = annotationsToJsonLd([annotation], exportAt()) as {
      first: { items: Record<string, unknown>[] };
    };
    const [item] = items.first.items;
    const broken = (change: Record<string, unknown>) => () =>
      annotationsFromJsonLd([{ ...item, ...change }], NOW);
    expect(broken({ target: { source: 'https://example.org/page', selector: [] } })).toThrow(
      /Annotation 1 annotates "https:\/\/example.org\/page", which is not a Docket bill/,
    );
    expect(
      broken({
        target: {
          source: 'urn:docket:bill:us%2F119%2Fhr-1/title',
          selector: { type: 'TextQuoteSelector', exact: 'x' },
        },
      }),
    ).toThrow('Annotation 1 has no TextPositionSelector');
    expect(() => annotationsFromJsonLd({ type: 'Something' }, NOW)).toThrow(WebAnnotationError);
  });
});
