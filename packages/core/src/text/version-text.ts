import type { Bill } from '../bills/bill.ts';
import { decodeUtf8 } from '../encoding/text-bytes.ts';
import type { MarkupTags, StructuredText, TextHeading } from './html-to-text.ts';
import { markupToStructuredText } from './html-to-text.ts';
import { decodeXmlBytes } from './xml-text.ts';

// A bill's text version fetched from the URL its source links ("Get text" on bill details): the
// bytes made structured plain text (its headings kept as ranges of lines), whatever the source
// sent: GovInfo's HTML (a <pre> block) and XML (the bill DTD's <section><enum><header>), a state
// legislature's HTML, plain text, or a PDF (read by pdf-text.ts). Anything else is refused with
// words a person can act on, before anything is stored.

export type VersionTextFormat = 'html' | 'xml' | 'pdf' | 'text';

/** Why fetched bytes give no text. */
export const NOT_A_TEXT_FORMAT =
  'it is not a text format Docket reads (HTML, XML, plain text or PDF)';

/** What the bytes are, from their first bytes (content types lie: GovInfo's XML is text/html). */
export function sniffVersionFormat(bytes: Uint8Array): VersionTextFormat | null {
  if (bytes.length === 0) return null;
  // "%PDF-" may follow a little junk: the specification lets readers look in the first 1024.
  const head = String.fromCharCode(...bytes.subarray(0, 1024));
  if (head.includes('%PDF-')) return 'pdf';
  // UTF-16 with a byte-order mark: XML (the only thing sources send so).
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return 'xml';
  }
  const start = head.replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '').trimStart();
  const lower = start.toLowerCase();
  if (/^(<!doctype html|<html|<head|<body|<pre|<p[\s>]|<div|<meta|<title)/.test(lower))
    return 'html';
  if (lower.startsWith('<?xml')) return /<html[\s>]/.test(lower) ? 'html' : 'xml';
  if (lower.startsWith('<!doctype') || /^<[a-z][\w.-]*[\s>]/.test(lower)) {
    return /<html[\s>]/.test(lower) ? 'html' : 'xml';
  }
  // Text: no NUL and no other control characters but tab, line feed, form feed and return.
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  if (/[\u0000-\u0008\u000E-\u001A\u001C-\u001F]/.test(head)) return null;
  return 'text';
}

// Lines a reader takes for headings in bill text laid out as text (GovInfo's <pre>, a PDF):
// "SECTION 1. SHORT TITLE.", "SEC. 2. DEFINITIONS.", "TITLE I—GENERAL PROVISIONS",
// "Subtitle A—…", "DIVISION B—…", "CHAPTER 3", "PART II", "ARTICLE 4", "Sec. 3. …" in a state
// bill. Where the words after a section's number are a sentence ("SECTION 1. The Legislature
// finds…", California's way) only the number is the heading; a long line is never one.
const SECTION_LABEL = /^(?:SECTION|SEC\.|Section|Sec\.|§)\s*\d+[A-Za-z0-9.-]*\.?(?=\s|$)/;
const DIVISION_LINE =
  /^(?:TITLE|DIVISION|Subtitle|SUBTITLE|CHAPTER|Chapter|PART|Part|ARTICLE|Article)\s+(?:[IVXLCDM]+|\d+|[A-Z])[A-Z]?\b/;
const MAX_HEADING_LENGTH = 160;

/** How much of a (trimmed) line is a heading, by the patterns above: 0 when none of it. */
function headingLength(line: string): number {
  if (line.length > MAX_HEADING_LENGTH) return 0;
  if (DIVISION_LINE.test(line)) return line.length;
  const label = SECTION_LABEL.exec(line)?.[0];
  if (label === undefined) return 0;
  const rest = line.slice(label.length);
  return rest.toUpperCase() === rest ? line.length : label.length;
}

/** The heading lines of plain text, by the patterns above. */
export function headingLines(text: string): TextHeading[] {
  const headings: TextHeading[] = [];
  let at = 0;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    const length = headingLength(trimmed);
    if (length > 0) {
      const start = at + (line.length - line.trimStart().length);
      headings.push({ start, end: start + length });
    }
    at += line.length + 1;
  }
  return headings;
}

/** Two lists of headings as one, in order, a line named twice kept once. */
function mergeHeadings(a: readonly TextHeading[], b: readonly TextHeading[]): TextHeading[] {
  const byStart = new Map<number, TextHeading>();
  for (const heading of [...a, ...b]) {
    if (!byStart.has(heading.start)) byStart.set(heading.start, heading);
  }
  return [...byStart.values()].sort((x, y) => x.start - y.start);
}

/** Plain text (a PDF's, a text file's) with its heading lines found. */
export function plainStructuredText(text: string): StructuredText {
  const clean = text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { text: clean, headings: headingLines(clean) };
}

// The bill XML of GovInfo and congress.gov (the bill DTD) and USLM: divisions down to clauses
// are blocks, each header (or heading) a heading on its line with its enum before it.
const XML_BLOCKS = new Set([
  'form',
  'official-title',
  'legis-body',
  'resolution-body',
  'preamble',
  'whereas',
  'division',
  'title',
  'subtitle',
  'part',
  'subpart',
  'chapter',
  'subchapter',
  'section',
  'subsection',
  'paragraph',
  'subparagraph',
  'clause',
  'subclause',
  'item',
  'subitem',
  'text',
  'quoted-block',
  'continuation-text',
  'attestation',
  'endorsement',
  'action',
  'action-desc',
  'congress',
  'session',
  'content',
  'chapeau',
  'continuation',
  'p',
  'level',
  'table',
  'row',
  'tr',
  'entry',
  'td',
]);
const XML_PARAGRAPHS = new Set(['division', 'title', 'subtitle', 'part', 'chapter', 'section']);
const XML_HEADINGS = new Set(['header', 'heading']);
const XML_TAGS: MarkupTags = {
  blocks: XML_BLOCKS,
  paragraphs: XML_PARAGRAPHS,
  headings: XML_HEADINGS,
  spaced: new Set(['enum', 'num']),
  skipped: new Set(['metadata', 'dublincore', 'distribution-code', 'calendar', 'style']),
};

/** HTML, XML or text bytes made structured text; a PDF is pdf-text.ts's. */
export function markupVersionText(
  bytes: Uint8Array,
  format: Exclude<VersionTextFormat, 'pdf'>,
): { ok: true; text: StructuredText } | { ok: false; reason: string } {
  if (format === 'xml') {
    const decoded = decodeXmlBytes(bytes);
    if (!decoded.ok) return decoded;
    const structured = markupToStructuredText(decoded.text, XML_TAGS);
    return { ok: true, text: withPatternHeadings(structured) };
  }
  const text = decodeUtf8(bytes).replace(/^\uFEFF/, '');
  if (format === 'text') return { ok: true, text: plainStructuredText(text) };
  return { ok: true, text: withPatternHeadings(markupToStructuredText(text)) };
}

function withPatternHeadings(structured: StructuredText): StructuredText {
  return {
    text: structured.text,
    headings: mergeHeadings(structured.headings, headingLines(structured.text)),
  };
}

/** The text cut at its headings: each piece a heading (or the text before the first) and its
 *  body, for showing the text with its structure. Offsets stay the text's. */
export interface TextPiece {
  start: number;
  end: number;
  heading: boolean;
}

export function textPieces(text: string, headings: readonly TextHeading[]): TextPiece[] {
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const heading of headings) {
    if (heading.start < at || heading.end > text.length || heading.end <= heading.start) continue;
    if (heading.start > at) pieces.push({ start: at, end: heading.start, heading: false });
    pieces.push({ start: heading.start, end: heading.end, heading: true });
    at = heading.end;
  }
  if (at < text.length) pieces.push({ start: at, end: text.length, heading: false });
  return pieces;
}

/** A version's text as this device fetched it (the `versionTexts` row's fields used here). */
export interface FetchedVersionText {
  index: number;
  url: string;
  text: string;
}

/**
 * The bill with each version's fetched text in place where the dataset has none, so annotation
 * targets, placing and comparing see every text there is. A copy fetched from another URL than
 * the version's now (a re-import changed it) is not used.
 */
export function withFetchedTexts<B extends Pick<Bill, 'texts'>>(
  bill: B,
  fetched: readonly FetchedVersionText[],
): B {
  if (fetched.length === 0) return bill;
  const byIndex = new Map(fetched.map((copy) => [copy.index, copy]));
  const texts = bill.texts.map((version, index) => {
    const copy = byIndex.get(index);
    if (version.text !== null || copy === undefined || copy.url !== version.url) return version;
    return { ...version, text: copy.text };
  });
  return texts.some((version, index) => version !== bill.texts[index]) ? { ...bill, texts } : bill;
}
