import { decodeUtf8, decodeUtf8Head, printable } from '../encoding/text-bytes.ts';

// XML files as bytes from strangers: the encoding they are in (UTF-8, UTF-16 with a byte-order
// mark, or the Latin-1 their declaration names), the one piece of XML refused outright (a
// DOCTYPE, whose entities can expand a small file into gigabytes or reach outside it), the
// character references every XML reader must decode, and messages a person can act on.

export const DOCTYPE_REFUSED = 'XML with a DOCTYPE is not read (entities are refused for safety)';

export type XmlText = { ok: true; text: string } | { ok: false; reason: string };

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252' | { unsupported: string };

// Windows-1252's characters at 0x80–0x9F; elsewhere it is Latin-1. The WHATWG Encoding Standard
// (what browsers do) reads a declared ISO-8859-1 as windows-1252, since files that say Latin-1
// are nearly always written by Windows software; unassigned bytes keep their Latin-1 meaning.
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152,
  0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122,
  0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

const LATIN_1_LABELS = new Set([
  'iso-8859-1',
  'iso8859-1',
  'iso_8859-1',
  'latin1',
  'latin-1',
  'l1',
  'windows-1252',
  'cp1252',
  'us-ascii',
  'ascii',
]);

/** The encoding of an XML file: its byte-order mark, else its declaration, else UTF-8. */
function xmlEncoding(bytes: Uint8Array): Encoding {
  const b0 = bytes[0];
  const b1 = bytes[1];
  const b2 = bytes[2];
  const b3 = bytes[3];
  if (
    (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) ||
    (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0)
  ) {
    return { unsupported: 'UTF-32' };
  }
  if (b0 === 0xff && b1 === 0xfe) return 'utf-16le';
  if (b0 === 0xfe && b1 === 0xff) return 'utf-16be';
  // "<?" without a byte-order mark, as the XML specification's appendix F recognises it.
  if (b0 === 0x3c && b1 === 0 && b2 === 0x3f && b3 === 0) return 'utf-16le';
  if (b0 === 0 && b1 === 0x3c && b2 === 0 && b3 === 0x3f) return 'utf-16be';
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return 'utf-8';
  // The declaration is ASCII: its bytes as characters, up to its first '>' (where the label's
  // pattern stops) within the first 200. Spreading 200 bytes into fromCharCode took 20 µs, and
  // every file is looked at three times (detection, the importer's check, decoding).
  if (b0 !== 0x3c || b1 !== 0x3f) return 'utf-8';
  let prolog = '';
  const prologEnd = Math.min(bytes.length, 200);
  for (let at = 0; at < prologEnd; at++) {
    const byte = bytes[at] as number;
    prolog += String.fromCharCode(byte);
    if (byte === 0x3e) break;
  }
  const label = /^<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]{1,40})["']/.exec(prolog)?.[1];
  if (label === undefined) return 'utf-8';
  const lower = label.toLowerCase();
  if (lower === 'utf-8' || lower === 'utf8') return 'utf-8';
  if (LATIN_1_LABELS.has(lower)) return 'windows-1252';
  // A UTF-16 declaration in a file whose bytes read as ASCII is wrong about itself: the bytes win.
  if (lower === 'utf-16' || lower === 'utf-16le' || lower === 'utf-16be') return 'utf-8';
  return { unsupported: label };
}

function decodeUtf16(bytes: Uint8Array, littleEndian: boolean): string {
  const start = (
    littleEndian ? bytes[0] === 0xff && bytes[1] === 0xfe : bytes[0] === 0xfe && bytes[1] === 0xff
  )
    ? 2
    : 0;
  const parts: string[] = [];
  const units: number[] = [];
  for (let at = start; at + 1 < bytes.length; at += 2) {
    const low = bytes[at] ?? 0;
    const high = bytes[at + 1] ?? 0;
    units.push(littleEndian ? low | (high << 8) : (low << 8) | high);
    if (units.length === 8192) {
      parts.push(String.fromCharCode(...units));
      units.length = 0;
    }
  }
  parts.push(String.fromCharCode(...units));
  return parts.join('');
}

function decodeWindows1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const codes: number[] = [];
  for (const byte of bytes) {
    codes.push(byte >= 0x80 && byte <= 0x9f ? (WINDOWS_1252_HIGH[byte - 0x80] ?? byte) : byte);
    if (codes.length === 8192) {
      parts.push(String.fromCharCode(...codes));
      codes.length = 0;
    }
  }
  parts.push(String.fromCharCode(...codes));
  return parts.join('');
}

/** The text of an XML file in UTF-8, UTF-16 or a declared Latin-1, or why it cannot be read. */
export function decodeXmlBytes(bytes: Uint8Array): XmlText {
  const encoding = xmlEncoding(bytes);
  if (typeof encoding === 'object') {
    return {
      ok: false,
      reason: `XML in the ${printable(encoding.unsupported)} encoding is not supported: save it as UTF-8 (UTF-16 and ISO-8859-1 are read too)`,
    };
  }
  switch (encoding) {
    case 'utf-8':
      return { ok: true, text: decodeUtf8(bytes) };
    case 'utf-16le':
      return { ok: true, text: decodeUtf16(bytes, true) };
    case 'utf-16be':
      return { ok: true, text: decodeUtf16(bytes, false) };
    case 'windows-1252':
      return { ok: true, text: decodeWindows1252(bytes) };
  }
}

/** The first characters of a file, UTF-16 ones included, for recognising XML. */
export function decodeXmlHead(bytes: Uint8Array, length = 4096): string {
  const encoding = xmlEncoding(bytes);
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    const decoded = decodeXmlBytes(bytes.subarray(0, length * 2));
    return decoded.ok ? decoded.text : '';
  }
  return decodeUtf8Head(bytes, length);
}

/** Whether an XML document declares a DOCTYPE before its root element. */
export function hasDoctype(text: string): boolean {
  return /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<\?[\s\S]*?\?>\s*)*<!DOCTYPE/i.test(
    text.slice(0, 65_536),
  );
}

const XML_ENTITIES: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
};

/**
 * XML's five named entities and its character references (&#8212; and &#x2014;) decoded in one
 * pass, so "&amp;#8212;" stays the text "&#8212;". A reference to a code point XML does not allow
 * (NUL, a surrogate, past U+10FFFF) and any other name are left as written.
 */
export function decodeXmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[0-9]{1,8}|#x[0-9a-fA-F]{1,6}|[a-z]{2,4});/g, (whole, name: string) => {
    if (!name.startsWith('#')) return XML_ENTITIES[name] ?? whole;
    const code =
      name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return whole;
    return String.fromCodePoint(code);
  });
}
