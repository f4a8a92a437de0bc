// Bill texts and summaries arrive as HTML (LegiScan documents, CRS summaries). Docket keeps
// them as plain text: it is what annotations anchor to, and a bill file must not be able to put
// markup or script in front of the user. This is a single left-to-right pass with indexOf, so
// hostile input (a million unclosed "<script") costs linear time, not a regex's backtracking.

const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
]);
const PARAGRAPH_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre']);
const SKIPPED_CONTENT = new Set(['script', 'style', 'head', 'title']);

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  sect: '§',
  para: '¶',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  bull: '•',
  middot: '·',
  copy: '©',
  reg: '®',
  deg: '°',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
};

export function decodeHtmlEntities(text: string): string {
  return text.replace(
    /&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{1,9});/g,
    (whole, body: string) => {
      if (body.startsWith('#')) {
        const code =
          body[1] === 'x' || body[1] === 'X'
            ? parseInt(body.slice(2), 16)
            : parseInt(body.slice(1), 10);
        const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
        return valid ? String.fromCodePoint(code) : '\uFFFD';
      }
      return NAMED_ENTITIES[body] ?? NAMED_ENTITIES[body.toLowerCase()] ?? whole;
    },
  );
}

function tagNameAt(html: string, start: number): { name: string; closing: boolean } {
  let index = start + 1;
  const closing = html[index] === '/';
  if (closing) index++;
  let name = '';
  while (index < html.length && name.length < 20) {
    const char = html[index] ?? '';
    if (!/[a-zA-Z0-9]/.test(char)) break;
    name += char;
    index++;
  }
  return { name: name.toLowerCase(), closing };
}

/** Which tags make blocks, paragraphs and headings, and whose content is dropped. */
export interface MarkupTags {
  readonly blocks: ReadonlySet<string>;
  /** Blocks set off by a blank line. */
  readonly paragraphs: ReadonlySet<string>;
  /** Tags whose text makes its line a heading. */
  readonly headings: ReadonlySet<string>;
  /** Inline tags followed by a space (a section's number before its header). */
  readonly spaced?: ReadonlySet<string>;
  readonly skipped: ReadonlySet<string>;
}

const HTML_TAGS: MarkupTags = {
  blocks: BLOCK_TAGS,
  paragraphs: PARAGRAPH_TAGS,
  headings: new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']),
  skipped: SKIPPED_CONTENT,
};

/** Marks a heading's text inside the pass; never in the output (input's own are dropped). */
const HEADING_MARK = '\u0001';
// eslint-disable-next-line no-control-regex -- the mark is a control character on purpose
const HEADING_MARKS = /\u0001/g;

/** A heading of a text: the line from `start` to `end`. */
export interface TextHeading {
  start: number;
  end: number;
}

/** Text with its headings, as a bill's version is kept once fetched. */
export interface StructuredText {
  text: string;
  headings: TextHeading[];
}

/**
 * Plain text of an HTML fragment: tags dropped, blocks on their own lines, entities decoded.
 * Whitespace follows HTML's rule (runs collapse, lines are trimmed) unless the document uses
 * <pre>, as state bill texts laid out in columns do; then it is kept as written.
 */
export function htmlToText(html: string): string {
  return markupToText(html, HTML_TAGS, false);
}

/**
 * The same pass as htmlToText with the lines its heading tags (h1–h6, or an XML vocabulary's
 * header elements) are on named as headings.
 */
export function markupToStructuredText(
  markup: string,
  tags: MarkupTags = HTML_TAGS,
): StructuredText {
  const marked = markupToText(markup.replace(HEADING_MARKS, ''), tags, true);
  const headings: TextHeading[] = [];
  const lines: string[] = [];
  let at = 0;
  for (const line of marked.split('\n')) {
    const clean = line.replace(HEADING_MARKS, '');
    if (clean.length !== line.length && clean.trim() !== '') {
      const lead = clean.length - clean.trimStart().length;
      headings.push({ start: at + lead, end: at + clean.trimEnd().length });
    }
    lines.push(clean);
    at += clean.length + 1;
  }
  return { text: lines.join('\n'), headings };
}

function markupToText(html: string, tags: MarkupTags, markHeadings: boolean): string {
  const lower = html.toLowerCase();
  const preformatted = lower.includes('<pre');
  const out: string[] = [];
  // Line breaks owed by block tags, written before the next text so that nested and adjacent
  // blocks give one break (or one blank line), not a pile of them.
  let pendingBreaks = 0;
  const text = (raw: string) => {
    const decoded = decodeHtmlEntities(raw);
    const value = preformatted ? decoded : decoded.replace(/\s+/g, ' ');
    if (value === '' || (pendingBreaks > 0 && !preformatted && value === ' ')) return;
    if (pendingBreaks > 0) out.push('\n'.repeat(pendingBreaks));
    pendingBreaks = 0;
    out.push(value);
  };
  let index = 0;
  while (index < html.length) {
    const open = html.indexOf('<', index);
    if (open < 0) {
      text(html.slice(index));
      break;
    }
    text(html.slice(index, open));
    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4);
      index = end < 0 ? html.length : end + 3;
      continue;
    }
    const close = html.indexOf('>', open + 1);
    if (close < 0) {
      // No tag can close after this point, so the rest is text (and is not rescanned per '<').
      text(html.slice(open));
      break;
    }
    const { name, closing } = tagNameAt(html, open);
    index = close + 1;
    if (name === '') {
      // '<!DOCTYPE ...>', '<?xml ...?>' and similar are dropped whole.
      continue;
    }
    if (!closing && tags.skipped.has(name)) {
      const end = lower.indexOf(`</${name}`, index);
      const endClose = end < 0 ? -1 : html.indexOf('>', end);
      index = endClose < 0 ? html.length : endClose + 1;
      continue;
    }
    if (tags.paragraphs.has(name)) pendingBreaks = 2;
    else if (tags.blocks.has(name)) pendingBreaks = Math.max(pendingBreaks, 1);
    // The mark goes in as text, after the breaks its own tag owes, so it lands on its line.
    if (markHeadings && !closing && tags.headings.has(name)) text(HEADING_MARK);
    if (closing && tags.spaced?.has(name) === true) text(' ');
  }
  // A heading's own leading spaces go, as a line's do.
  const joined = out
    .join('')
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex -- the mark is a control character on purpose
    .replace(/\u0001[ \t]+/g, HEADING_MARK);
  return (preformatted ? joined : joined.replace(/ {2,}/g, ' '))
    .split('\n')
    .map((line) => (preformatted ? line.trimEnd() : line.trim()))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
