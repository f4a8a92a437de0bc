import { describe, expect, it } from 'vitest';
import type { Annotation } from '../store/local-records.ts';
import {
  annotationToJsonLd,
  annotationsFromJsonLd,
  annotationsToJsonLd,
  DEFAULT_ANNOTATION_COLOUR,
  WebAnnotationError,
} from './web-annotation-jsonld.ts';

const NOW = '2025-02-01T10:00:00.000Z';

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

  it('gives the collection and its page ids, and each annotation its own context', () => {
    const collection = annotationsToJsonLd([annotation], NOW) as {
      id: string;
      first: { id: string; partOf: { id: string }; items: Record<string, unknown>[] };
    };
    expect(collection.id).toBe('urn:docket:annotations:2025-02-01T10:00:00.000Z');
    expect(collection.first.id).toBe('urn:docket:annotations:2025-02-01T10:00:00.000Z:page:1');
    expect(collection.first.partOf.id).toBe(collection.id);
    expect(collection.first.items[0]?.['@context']).toBe('http://www.w3.org/ns/anno.jsonld');
  });

  it('counts positions in code points, as the model says, and reads them back', () => {
    // "𝕏" and "🏛" are one code point and two UTF-16 code units each; "é" is one of each.
    const text = 'Café 𝕏 rules 🏛 for the tenant, who pays.';
    const start = text.indexOf('tenant');
    const made: Annotation = {
      ...annotation,
      quote: { exact: 'tenant', prefix: 'for the ', suffix: ', who pays.' },
      position: { start, end: start + 'tenant'.length },
    };
    const written = annotationToJsonLd(made, text) as {
      target: { selector: { type: string; start?: number; end?: number }[] };
    };
    const position = written.target.selector.find((s) => s.type === 'TextPositionSelector');
    expect(position).toEqual({ type: 'TextPositionSelector', start: start - 2, end: start + 4 });
    // eslint-disable-next-line @typescript-eslint/no-misused-spread -- code points are the point here.
    expect([...text].slice(position?.start, position?.end).join('')).toBe('tenant');

    const collection = JSON.parse(
      JSON.stringify(annotationsToJsonLd([made], NOW, () => text)),
    ) as unknown;
    expect(annotationsFromJsonLd(collection, NOW, () => text)).toEqual([made]);
  });

  it('reads back what it wrote, through JSON text, field for field', () => {
    const highlight = { ...annotation, id: 'note-2', note: '', target: 'title' };
    const text = JSON.stringify(annotationsToJsonLd([annotation, highlight], NOW));
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
    const items = annotationsToJsonLd([annotation], NOW) as {
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
