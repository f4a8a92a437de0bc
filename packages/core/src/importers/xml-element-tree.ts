import { printable } from '../encoding/text-bytes.ts';
import { decodeXmlEntities, DOCTYPE_REFUSED } from '../text/xml-text.ts';

// A small XML reader for bill files: one pass over the text with indexOf, checking that the
// document is well-formed as it builds the element tree, in the shape fast-xml-parser gives with
// attributes ignored and values kept as text (an element holding only text is its trimmed text,
// one with children an object of them, a repeated child a list, the named ones always a list,
// text beside children under '#text'). fast-xml-parser and its validator took 3–5 ms of CPU for
// a 31 KB BILLSTATUS file of the 116th Congress, most of what importing it cost; this reader takes
// about a tenth of that. It reads what bill files use: elements, attributes (skipped),
// text, CDATA, comments, processing instructions, XML's five entities and character references;
// a DOCTYPE is refused, so no entity a file declares is ever expanded.

export type XmlTree = { ok: true; document: XmlValue } | { ok: false; reason: string };
export type XmlValue = string | XmlObject | XmlValue[];
export interface XmlObject {
  [name: string]: XmlValue;
}

interface Frame {
  name: string;
  /** Where the start tag begins, for messages about it. */
  at: number;
  children: XmlObject | null;
  text: string;
}

class Malformed extends Error {
  constructor(
    readonly at: number,
    readonly what: string,
  ) {
    super(what);
  }
}

class CutShort extends Error {}

// XML's NameStartChar and NameChar (XML 1.0 §2.3), tried only where the ASCII fast path ends.
const NAME_START =
  /[:A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD]/;
const NAME_CHAR =
  /[-.0-9:A-Z_a-z\u00B7\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u037D\u037F-\u1FFF\u200C-\u200D\u203F-\u2040\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD]/;

function isAsciiNameChar(code: number, first: boolean): boolean {
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f) {
    return true;
  }
  if (code === 0x3a) return true;
  return !first && ((code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e);
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;
}

/** The end of the name that starts at `from` (or `from` itself when none does). */
function nameEnd(text: string, from: number): number {
  let at = from;
  for (; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x80) {
      if (!isAsciiNameChar(code, at === from)) break;
    } else if (!(at === from ? NAME_START : NAME_CHAR).test(text.charAt(at))) break;
  }
  return at;
}

function lineAt(text: string, at: number): number {
  let lines = 1;
  for (let next = text.indexOf('\n'); next >= 0 && next < at; next = text.indexOf('\n', next + 1)) {
    lines++;
  }
  return lines;
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let at = from; at < to; at++) if (!isSpace(text.charCodeAt(at))) return false;
  return true;
}

// Element names as one string each, however often they occur: a name used as a property key
// again is found at once, where a fresh copy of it would be looked up in V8's string table. The
// names are kept in a small table by a hash of their characters, taken while the start tag's name
// is scanned, and compared in place: a name met before costs no string at all. A slot holds the
// name last seen with its hash, so the table never grows, whatever a file holds.
const NAME_SLOTS = 2048;
const nameSlots: string[] = new Array<string>(NAME_SLOTS).fill('');
/** The hash of the last name nameEndHashed scanned. */
let scannedHash = 0;

/** nameEnd, which also leaves a hash of the name's characters in scannedHash. */
function nameEndHashed(text: string, from: number): number {
  let hash = 0;
  let at = from;
  const length = text.length;
  for (; at < length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x80) {
      if (!isAsciiNameChar(code, at === from)) break;
    } else if (!(at === from ? NAME_START : NAME_CHAR).test(text.charAt(at))) break;
    hash = (Math.imul(hash, 31) + code) | 0;
  }
  scannedHash = hash;
  return at;
}

function internedName(text: string, from: number, to: number, hash: number): string {
  const slot = (hash ^ (hash >>> 11)) & (NAME_SLOTS - 1);
  const known = nameSlots[slot] as string;
  const length = to - from;
  if (known.length === length) {
    let same = true;
    for (let index = 0; index < length; index++) {
      if (known.charCodeAt(index) !== text.charCodeAt(from + index)) {
        same = false;
        break;
      }
    }
    if (same) return known;
  }
  const name = text.slice(from, to);
  nameSlots[slot] = name;
  return name;
}

/** Why an end tag does not close the element open at that point. */
function endTagProblem(text: string, lt: number, frame: Frame | undefined): Error {
  const close = text.indexOf('>', lt + 2);
  if (close === -1) return new CutShort();
  const nameStop = nameEnd(text, lt + 2);
  const name = text.slice(lt + 2, nameStop);
  if (!isBlank(text, nameStop, close)) {
    return new Malformed(lt, `end tag '${text.slice(lt, close + 1)}' is an invalid name`);
  }
  if (frame === undefined) return new Malformed(lt, `end tag '</${name}>' with no element open`);
  return new Malformed(
    lt,
    `expected the end tag of '${frame.name}' (opened at line ${lineAt(text, frame.at)}) instead of '</${name}>'`,
  );
}

const REFERENCE = /&(?:#[0-9]+|#x[0-9a-fA-F]+|[:A-Z_a-z][-.0-9:A-Z_a-z]*);/y;

/** Text with its references decoded; a '&' that begins none is a fault, as XML says. */
function decodeText(segment: string, at: number): string {
  if (!segment.includes('&')) return segment;
  for (let amp = segment.indexOf('&'); amp >= 0; amp = segment.indexOf('&', amp + 1)) {
    REFERENCE.lastIndex = amp;
    if (!REFERENCE.test(segment)) {
      throw new Malformed(at, `'&' begins no reference: '${segment.slice(amp, amp + 12)}'`);
    }
  }
  return decodeXmlEntities(segment);
}

function addChild(
  parent: Frame,
  name: string,
  value: XmlValue,
  alwaysList: ReadonlySet<string>,
): void {
  const children = (parent.children ??= {});
  const existing = children[name];
  if (existing === undefined) children[name] = alwaysList.has(name) ? [value] : value;
  // Values are never lists themselves, so a list here is this name's own.
  else if (Array.isArray(existing)) existing.push(value);
  else children[name] = [existing, value];
}

function valueOf(frame: Frame): XmlValue {
  const text = frame.text;
  if (frame.children === null) return text;
  if (text !== '') frame.children['#text'] = text;
  return frame.children;
}

/** The end of a start tag's attributes: the index of its '>' (after '/' when self-closing). */
function skipAttributes(text: string, from: number): number {
  let at = from;
  for (;;) {
    while (at < text.length && isSpace(text.charCodeAt(at))) at++;
    if (at >= text.length) throw new CutShort();
    const code = text.charCodeAt(at);
    if (code === 0x3e) return at;
    if (code === 0x2f) {
      if (at + 1 >= text.length) throw new CutShort();
      if (text.charCodeAt(at + 1) !== 0x3e) throw new Malformed(at, "'/' not followed by '>'");
      return at + 1;
    }
    if (at === from) throw new Malformed(at, 'an attribute must follow a space');
    const end = nameEnd(text, at);
    if (end === at) {
      throw new Malformed(at, `'${text.slice(at, at + 20)}' is not an attribute name`);
    }
    at = end;
    while (at < text.length && isSpace(text.charCodeAt(at))) at++;
    if (at >= text.length) throw new CutShort();
    if (text.charCodeAt(at) !== 0x3d) {
      throw new Malformed(
        at,
        `attribute '${text.slice(end - 40 > 0 ? end - 40 : 0, end)}' has no value`,
      );
    }
    at++;
    while (at < text.length && isSpace(text.charCodeAt(at))) at++;
    const quote = text.charAt(at);
    if (quote === '') throw new CutShort();
    if (quote !== '"' && quote !== "'") throw new Malformed(at, 'attribute value not quoted');
    const close = text.indexOf(quote, at + 1);
    if (close === -1) throw new CutShort();
    const lt = text.indexOf('<', at + 1);
    if (lt !== -1 && lt < close) throw new Malformed(lt, "'<' inside an attribute value");
    at = close + 1;
    const after = text.charCodeAt(at);
    if (at < text.length && !isSpace(after) && after !== 0x3e && after !== 0x2f) {
      throw new Malformed(at, 'attributes must be separated by a space');
    }
  }
}

/** Whether `name` is written in `text` at `at` (startsWith, without its call for short names). */
function isAt(text: string, name: string, at: number): boolean {
  const length = name.length;
  if (at + length > text.length) return false;
  for (let index = 0; index < length; index++) {
    if (name.charCodeAt(index) !== text.charCodeAt(at + index)) return false;
  }
  return true;
}

/** Where the text between tags starts and ends once trimmed as String#trim does, in
 *  textStart and textEnd; false when the text is XML spaces only. */
let textStart = 0;
let textEnd = 0;

function trimmedBounds(text: string, from: number, to: number): boolean {
  let start = from;
  while (start < to && isSpace(text.charCodeAt(start))) start++;
  if (start === to) return false;
  let end = to;
  while (isSpace(text.charCodeAt(end - 1))) end--;
  textStart = start;
  textEnd = end;
  return true;
}

/** Whether a character is surely not one String#trim removes: printable ASCII. */
function isPlainAscii(code: number): boolean {
  return code > 0x20 && code < 0x7f;
}

/**
 * Adds the text between tags, from `at` to `end`, to the open element `current`; text outside the
 * root element is a fault. Called right after trimmedBounds found it more than XML spaces, so
 * textStart and textEnd are its bounds.
 */
function addText(
  text: string,
  at: number,
  end: number,
  current: Frame | undefined,
  rootSeen: boolean,
): void {
  // Each piece of text is trimmed, as fast-xml-parser's trimValues does; CDATA is kept whole.
  // Text that starts and ends with printable ASCII is cut out trimmed at once; anything
  // else (a no-break space at an end, say) is trimmed by String#trim itself.
  const segment =
    isPlainAscii(text.charCodeAt(textStart)) && isPlainAscii(text.charCodeAt(textEnd - 1))
      ? text.slice(textStart, textEnd)
      : text.slice(at, end).trim();
  if (segment !== '') {
    if (current === undefined) {
      throw new Malformed(
        at,
        rootSeen ? 'text after the root element' : 'text before the root element',
      );
    }
    current.text += decodeText(segment, at);
  }
}

/**
 * The index of the '>' of the end tag at `lt`, which must close `frame`, the innermost open
 * element. Compared with the open element's name in place: no string is made for it.
 */
function endTagClose(text: string, lt: number, frame: Frame): number {
  const expected = lt + 2 + frame.name.length;
  const after = text.charCodeAt(expected);
  let close = -1;
  if (isAt(text, frame.name, lt + 2)) {
    if (after === 0x3e) close = expected;
    else if (isSpace(after)) close = text.indexOf('>', expected);
  }
  if (close === -1 || !isBlank(text, expected, close)) {
    throw endTagProblem(text, lt, frame);
  }
  return close;
}

/**
 * Where reading goes on after the '<!' markup at `lt`: past a comment, or past a CDATA section
 * once its text is added to the open element `current`. A DOCTYPE is refused, as is markup XML
 * does not know.
 */
function afterBangMarkup(text: string, lt: number, current: Frame | undefined): number {
  if (text.startsWith('<!--', lt)) {
    const close = text.indexOf('-->', lt + 4);
    if (close === -1) throw new CutShort();
    return close + 3;
  }
  if (text.startsWith('<![CDATA[', lt)) {
    const close = text.indexOf(']]>', lt + 9);
    if (close === -1) throw new CutShort();
    if (current === undefined) throw new Malformed(lt, 'CDATA outside the root element');
    // Its text is as written: no references are decoded inside it.
    current.text += text.slice(lt + 9, close);
    return close + 3;
  }
  if (text.startsWith('<!DOCTYPE', lt)) throw new Malformed(lt, DOCTYPE_REFUSED);
  if (lt + 9 > text.length) throw new CutShort();
  throw new Malformed(lt, `'${text.slice(lt, lt + 12)}' is not markup XML knows`);
}

/** The fault of a document that ends with elements still open, `open` outermost first. */
function stillOpen(open: readonly Frame[]): CutShort {
  const names = open.map((frame) => frame.name);
  const listed =
    names.length <= 3
      ? names.map((name) => `<${printable(name, 40)}>`).join(', ')
      : `<${printable(names[0] ?? '', 40)}> and ${names.length - 1} more elements`;
  return new CutShort(`with ${listed} still open`);
}

function parse(text: string, alwaysList: ReadonlySet<string>): XmlValue {
  // The open elements, stack[0] the root, stack[depth - 1] the innermost. Frames are used again
  // as the depth returns to them: an element costs no frame object of its own.
  const stack: Frame[] = [];
  let depth = 0;
  const top: Frame = { name: '', at: 0, children: null, text: '' };
  let rootSeen = false;
  let at = 0;
  // A byte-order mark decoded as a character is no content.
  if (text.charCodeAt(0) === 0xfeff) at = 1;
  for (;;) {
    const lt = text.indexOf('<', at);
    const end = lt === -1 ? text.length : lt;
    const current = depth === 0 ? undefined : (stack[depth - 1] as Frame);
    // Most text between tags is the file's indentation: checked in place, no string is made.
    if (end > at && trimmedBounds(text, at, end)) addText(text, at, end, current, rootSeen);
    if (lt === -1) break;
    const next = text.charCodeAt(lt + 1);
    if (next === 0x2f) {
      // An end tag.
      const frame = current;
      if (frame === undefined) throw endTagProblem(text, lt, undefined);
      const close = endTagClose(text, lt, frame);
      depth--;
      const value = valueOf(frame);
      frame.children = null;
      frame.text = '';
      addChild(depth === 0 ? top : (stack[depth - 1] as Frame), frame.name, value, alwaysList);
      at = close + 1;
    } else if (next === 0x3f) {
      // A processing instruction or the XML declaration: nothing in it is content.
      const close = text.indexOf('?>', lt + 2);
      if (close === -1) throw new CutShort();
      at = close + 2;
    } else if (next === 0x21) {
      at = afterBangMarkup(text, lt, current);
    } else {
      // A start tag.
      const nameStop = nameEndHashed(text, lt + 1);
      if (nameStop >= text.length) throw new CutShort();
      const stop = text.charCodeAt(nameStop);
      if (nameStop === lt + 1 || !(isSpace(stop) || stop === 0x3e || stop === 0x2f)) {
        const shown = text.slice(lt, Math.max(nameStop + 1, text.indexOf('>', lt) + 1 || lt + 40));
        throw new Malformed(lt, `Tag '${shown.slice(0, 60)}' is an invalid name`);
      }
      const name = internedName(text, lt + 1, nameStop, scannedHash);
      const close = stop === 0x3e ? nameStop : skipAttributes(text, nameStop);
      if (depth === 0) {
        if (rootSeen) throw new Malformed(lt, `a second root element '<${name}>'`);
        rootSeen = true;
      }
      if (text.charCodeAt(close - 1) === 0x2f && close > nameStop) {
        addChild(current ?? top, name, '', alwaysList);
      } else {
        const frame = stack[depth];
        if (frame === undefined) stack.push({ name, at: lt, children: null, text: '' });
        else {
          frame.name = name;
          frame.at = lt;
        }
        depth++;
      }
      at = close + 1;
    }
  }
  if (depth > 0) throw stillOpen(stack.slice(0, depth));
  if (!rootSeen) throw new Malformed(text.length, 'no root element');
  return top.children ?? '';
}

/**
 * The element tree of an XML document, or a message a person can act on: the line of the first
 * fault, or where a file cut short ends. `alwaysList` names the elements that are a list even
 * when there is one of them.
 */
export function readXmlTree(text: string, alwaysList: ReadonlySet<string>): XmlTree {
  try {
    return { ok: true, document: parse(text, alwaysList) };
  } catch (error) {
    if (error instanceof CutShort) {
      const lines = lineAt(text, text.length);
      return {
        ok: false,
        reason:
          error.message === ''
            ? `XML cut short: the file ends at line ${lines} in the middle of its markup`
            : `XML cut short: the file ends at line ${lines} ${error.message}`,
      };
    }
    if (error instanceof Malformed) {
      if (error.what === DOCTYPE_REFUSED) return { ok: false, reason: DOCTYPE_REFUSED };
      return {
        ok: false,
        reason: `Malformed XML at line ${lineAt(text, error.at)}: ${printable(error.what, 200)}`,
      };
    }
    throw error;
  }
}
