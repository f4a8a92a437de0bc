import { z } from 'zod';
import { formatSchemaIssues } from '../bills/bill.ts';
import type { Annotation } from '../store/local-records.ts';
import { annotationSchema } from '../store/local-records.ts';

// Annotations as W3C Web Annotation JSON-LD (https://www.w3.org/TR/annotation-model/), one
// AnnotationCollection with a single page holding every annotation:
//
//   { "@context", "id": "urn:uuid:…", "type": "AnnotationCollection", "label", "generated",
//     "total", "last": the page's id,
//     "first": { "@context", "id": "urn:uuid:…", "type": "AnnotationPage",
//                "partOf": { "id", "label", "total" }, "startIndex": 0, "items": [ … ] } }
//
// and each item:
//
//   {
//     "@context": "http://www.w3.org/ns/anno.jsonld" (on each one, so it stands alone),
//     "id":       "urn:uuid:<id>" (Docket's ids are UUIDs; "urn:docket:annotation:<id>" if not),
//     "type":     "Annotation",
//     "motivation": "commenting" (a note) | "highlighting" (none),
//     "created", "modified",
//     "body":     { "type": "TextualBody", "value": note, "format": "text/plain",
//                   "purpose": "commenting" }          (absent when there is no note)
//     "target":   { "source": "urn:docket:bill:<bill id>/<part>",
//                   "styleClass": "docket-colour-rrggbb",
//                   "selector": [TextQuoteSelector {exact, prefix, suffix},
//                                TextPositionSelector {start, end} in code points] }
//     "stylesheet": { "type": "CssStylesheet", "value": ".docket-colour-rrggbb { … }" }
//   }
//
// Ids: a local export has no web address to give, so nothing here pretends to one. The
// collection and its page get fresh random UUIDs (`urn:uuid:`, RFC 9562) when the file is
// written: they name that one export, which no later export is. An annotation's id is its row
// id, a UUID, so it keeps the same `urn:uuid:` from export to export and a re-import finds it.
// Bills have no UUID, so their parts are named under `urn:docket:bill:`, a name only Docket
// reads (the target's source says which text the selectors count in, it is not fetched).
//
// The bill id and the part of the bill (title, summary, text:N) are URI-encoded into the
// target's source, so the selectors are relative to exactly the text they were made on. The
// highlight colour travels the model's own way, as a CSS class on the target.
//
// The model counts a TextPositionSelector's offsets in Unicode code points; JavaScript strings
// (and so the stored positions, and text-anchoring.ts) count UTF-16 code units, which differ
// after any character outside the Basic Multilingual Plane (an emoji, 𝒳, a rare CJK
// character). The conversion is at the file's edge: the writer converts with the text the
// annotation was made on; the reader gives code points, and the import converts them back with
// the device's copy of the bill (`positionInUtf16`). Where the text is not at hand the offsets
// pass as they are, and placing the annotation leans on the quote, as it does after a re-import.

export const ANNOTATION_CONTEXT = 'http://www.w3.org/ns/anno.jsonld';
const ANNOTATION_URN = 'urn:docket:annotation:';
const BILL_URN = 'urn:docket:bill:';
const UUID_URN = 'urn:uuid:';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COLOUR_CLASS = /^docket-colour-([0-9a-f]{6})$/;
/** The colour of an annotation whose file does not give one (the app's default, yellow). */
export const DEFAULT_ANNOTATION_COLOUR = '#fff176';
/** More annotations than anyone makes by hand; a file claiming more is refused unread. */
export const MAX_IMPORTED_ANNOTATIONS = 200_000;

function colourClass(colour: string): string {
  return `docket-colour-${colour.slice(1).toLowerCase()}`;
}

/** How many code points the first `units` UTF-16 code units of `text` hold. */
export function codePointOffset(text: string, units: number): number {
  let points = 0;
  for (let at = 0; at < units && at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    // A high surrogate followed by a low one is one code point.
    if (code >= 0xd800 && code <= 0xdbff && at + 1 < units) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) at += 1;
    }
    points += 1;
  }
  return points + Math.max(0, units - text.length);
}

/**
 * The UTF-16 offset of the `points`-th code point of `text`; past its end, one unit a point, so
 * that it undoes `codePointOffset` there too.
 */
export function utf16Offset(text: string, points: number): number {
  let at = 0;
  let counted = 0;
  for (; counted < points && at < text.length; counted += 1) {
    const code = text.charCodeAt(at);
    const next = text.charCodeAt(at + 1);
    at += code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return at + (points - counted);
}

/**
 * A position read from the model (code points) as the stored rows count it (UTF-16), given the
 * text it is on; unchanged when the text is not known.
 */
export function positionInUtf16(
  text: string | null,
  position: { readonly start: number; readonly end: number },
): { start: number; end: number } {
  if (text === null) return { start: position.start, end: position.end };
  return { start: utf16Offset(text, position.start), end: utf16Offset(text, position.end) };
}

/** An annotation's IRI: `urn:uuid:` for the UUIDs Docket makes, its own URN for anything else. */
function annotationIri(id: string): string {
  return UUID.test(id) && id === id.toLowerCase()
    ? `${UUID_URN}${id}`
    : `${ANNOTATION_URN}${encodeURIComponent(id)}`;
}

/** A fresh `urn:uuid:` from a source of version-4 UUIDs (`randomIdSource` in the app). */
function freshUuidUrn(newUuid: () => string): string {
  const uuid = newUuid();
  if (!UUID.test(uuid)) throw new Error(`Not a UUID: ${JSON.stringify(uuid.slice(0, 60))}`);
  return `${UUID_URN}${uuid.toLowerCase()}`;
}

/**
 * One annotation as the model writes it, with its own `@context`. `text` is the text it was
 * made on, when known, so that its position can be given in code points.
 */
export function annotationToJsonLd(
  annotation: Annotation,
  text: string | null = null,
): Record<string, unknown> {
  const styleClass = colourClass(annotation.color);
  const { start, end } = annotation.position;
  return {
    '@context': ANNOTATION_CONTEXT,
    id: annotationIri(annotation.id),
    type: 'Annotation',
    motivation: annotation.note === '' ? 'highlighting' : 'commenting',
    created: annotation.createdAt,
    modified: annotation.updatedAt,
    ...(annotation.note === ''
      ? {}
      : {
          body: {
            type: 'TextualBody',
            value: annotation.note,
            format: 'text/plain',
            purpose: 'commenting',
          },
        }),
    target: {
      source: `${BILL_URN}${encodeURIComponent(annotation.billId)}/${encodeURIComponent(annotation.target)}`,
      styleClass,
      selector: [
        {
          type: 'TextQuoteSelector',
          exact: annotation.quote.exact,
          prefix: annotation.quote.prefix,
          suffix: annotation.quote.suffix,
        },
        {
          type: 'TextPositionSelector',
          start: text === null ? start : codePointOffset(text, start),
          end: text === null ? end : codePointOffset(text, end),
        },
      ],
    },
    stylesheet: {
      type: 'CssStylesheet',
      value: `.${styleClass} { background-color: ${annotation.color.toLowerCase()}; }`,
    },
  };
}

export interface JsonLdExport {
  /** When the file is written: the collection's `generated`. */
  readonly exportedAt: string;
  /** Fresh UUIDs for the collection's and the page's ids (`randomIdSource` in the app). */
  readonly newUuid: () => string;
  /** The text an annotation was made on, when the export holds it, to count in code points. */
  readonly textOf?: (annotation: Annotation) => string | null;
}

/** Every annotation in one AnnotationCollection of one page, each with an id of its own. */
export function annotationsToJsonLd(
  annotations: readonly Annotation[],
  { exportedAt, newUuid, textOf = () => null }: JsonLdExport,
): Record<string, unknown> {
  const id = freshUuidUrn(newUuid);
  const pageId = freshUuidUrn(newUuid);
  return {
    '@context': ANNOTATION_CONTEXT,
    id,
    type: 'AnnotationCollection',
    label: 'Docket annotations',
    generated: exportedAt,
    total: annotations.length,
    // One page, so the last is the first, named as the model asks a collection to.
    last: pageId,
    first: {
      // The page, too, stands alone when taken out of its collection.
      '@context': ANNOTATION_CONTEXT,
      id: pageId,
      type: 'AnnotationPage',
      // Described, not only named, as the model's own examples do, so a page read alone says
      // what it is part of.
      partOf: { id, label: 'Docket annotations', total: annotations.length },
      startIndex: 0,
      items: annotations.map((annotation) => annotationToJsonLd(annotation, textOf(annotation))),
    },
  };
}

// The reading side accepts what this module writes and what other tools plausibly write from
// the same model: `type` as a string or a list, one selector or several, a body or a list of
// bodies. Anything it cannot place exactly is an error naming the annotation, never a guess.

const typeIs = (name: string) =>
  z.union([z.literal(name), z.array(z.string()).refine((types) => types.includes(name))]);
const shortText = z.string().max(1000);

const quoteSelectorSchema = z.object({
  type: typeIs('TextQuoteSelector'),
  exact: z.string().max(1_000_000),
  prefix: z.string().max(10_000).optional(),
  suffix: z.string().max(10_000).optional(),
});
const positionSelectorSchema = z.object({
  type: typeIs('TextPositionSelector'),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});
const selectorSchema = z.looseObject({ type: z.union([z.string(), z.array(z.string())]) });
const bodySchema = z.looseObject({
  type: z.union([z.string(), z.array(z.string())]).optional(),
  value: z.string().max(100_000).optional(),
});

const jsonLdAnnotationSchema = z.looseObject({
  id: shortText.optional(),
  type: typeIs('Annotation'),
  created: shortText.optional(),
  modified: shortText.optional(),
  body: z.union([bodySchema, z.array(bodySchema).max(100)]).optional(),
  target: z.looseObject({
    source: shortText,
    styleClass: shortText.optional(),
    selector: z.union([selectorSchema, z.array(selectorSchema).max(20)]),
  }),
});

const collectionSchema = z.looseObject({
  type: typeIs('AnnotationCollection'),
  first: z.looseObject({
    items: z.array(z.unknown()).max(MAX_IMPORTED_ANNOTATIONS),
  }),
});

export class WebAnnotationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebAnnotationError';
  }
}

/**
 * An annotation read from JSON-LD: `id` is null when the file's is not one Docket can keep (a
 * `urn:uuid:` or Docket's own URN). Its `position` counts code points, as the model does, until
 * `positionInUtf16` turns it into the stored rows' UTF-16 with the text it is on.
 */
export interface ImportedAnnotation extends Omit<Annotation, 'id'> {
  readonly id: string | null;
}

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new WebAnnotationError(`${what} is not a valid URI part`);
  }
}

/** The row id an annotation's IRI carries, or null when it carries none Docket can keep. */
function rowIdOf(iri: string | undefined, label: string): string | null {
  if (iri === undefined) return null;
  if (iri.toLowerCase().startsWith(UUID_URN)) {
    const uuid = iri.slice(UUID_URN.length);
    return UUID.test(uuid) ? uuid : null;
  }
  return iri.startsWith(ANNOTATION_URN)
    ? decode(iri.slice(ANNOTATION_URN.length), `${label}'s id`)
    : null;
}

function readOne(value: unknown, label: string, fallbackTime: string): ImportedAnnotation {
  const parsed = jsonLdAnnotationSchema.safeParse(value);
  if (!parsed.success) {
    throw new WebAnnotationError(
      `${label} is not a Web Annotation: ${formatSchemaIssues(parsed.error)}`,
    );
  }
  const item = parsed.data;
  const source = item.target.source;
  if (!source.startsWith(BILL_URN)) {
    throw new WebAnnotationError(
      `${label} annotates ${JSON.stringify(source.slice(0, 80))}, which is not a Docket bill`,
    );
  }
  const path = source.slice(BILL_URN.length);
  const slash = path.lastIndexOf('/');
  if (slash <= 0) throw new WebAnnotationError(`${label} does not say which part of the bill`);
  const billId = decode(path.slice(0, slash), `${label}'s bill`);
  const target = decode(path.slice(slash + 1), `${label}'s part of the bill`);
  const selectors = Array.isArray(item.target.selector)
    ? item.target.selector
    : [item.target.selector];
  let quote: z.infer<typeof quoteSelectorSchema> | null = null;
  let position: z.infer<typeof positionSelectorSchema> | null = null;
  for (const selector of selectors) {
    quote ??= quoteSelectorSchema.safeParse(selector).data ?? null;
    position ??= positionSelectorSchema.safeParse(selector).data ?? null;
  }
  if (quote === null) throw new WebAnnotationError(`${label} has no TextQuoteSelector`);
  if (position === null) {
    throw new WebAnnotationError(`${label} has no TextPositionSelector`);
  }
  const bodies = item.body === undefined ? [] : Array.isArray(item.body) ? item.body : [item.body];
  const note = bodies
    .map((body) => body.value)
    .filter((text): text is string => text !== undefined)
    .join('\n\n');
  const colour = COLOUR_CLASS.exec(item.target.styleClass ?? '')?.[1];
  const id = rowIdOf(item.id, label);
  const created = item.created ?? fallbackTime;
  const candidate = {
    id: id ?? 'placeholder',
    billId,
    quote: { exact: quote.exact, prefix: quote.prefix ?? '', suffix: quote.suffix ?? '' },
    position: { start: position.start, end: position.end },
    target,
    color: colour === undefined ? DEFAULT_ANNOTATION_COLOUR : `#${colour}`,
    note,
    createdAt: created,
    updatedAt: item.modified ?? created,
  };
  const checked = annotationSchema.safeParse(candidate);
  if (!checked.success) {
    throw new WebAnnotationError(`${label} does not fit: ${formatSchemaIssues(checked.error)}`);
  }
  return { ...checked.data, id };
}

/** Whether parsed JSON looks like Web Annotation JSON-LD (before it is read in full). */
export function isWebAnnotationJson(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const context = record['@context'];
  const contexts = Array.isArray(context) ? context : [context];
  return (
    contexts.includes(ANNOTATION_CONTEXT) || typeIs('Annotation').safeParse(record.type).success
  );
}

/**
 * The annotations of a JSON-LD document: an AnnotationCollection (its first page), one
 * Annotation, or a list of them, with positions in code points (see ImportedAnnotation). Throws
 * WebAnnotationError naming the first that does not fit.
 */
export function annotationsFromJsonLd(value: unknown, fallbackTime: string): ImportedAnnotation[] {
  let items: unknown[];
  if (Array.isArray(value)) {
    if (value.length > MAX_IMPORTED_ANNOTATIONS) {
      throw new WebAnnotationError(`more than ${MAX_IMPORTED_ANNOTATIONS} annotations`);
    }
    items = value;
  } else {
    const collection = collectionSchema.safeParse(value);
    if (collection.success) items = collection.data.first.items;
    else if (typeIs('Annotation').safeParse((value as { type?: unknown } | null)?.type).success) {
      items = [value];
    } else {
      throw new WebAnnotationError(
        'it is neither an AnnotationCollection nor an Annotation of the W3C Web Annotation model',
      );
    }
  }
  return items.map((item, index) => readOne(item, `Annotation ${index + 1}`, fallbackTime));
}
