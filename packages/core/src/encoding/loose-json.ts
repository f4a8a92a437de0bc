import { decodeUtf8 } from './text-bytes.ts';

// Source files are foreign JSON: nothing about their shape is trusted. These readers take
// `unknown` and answer plain values or null, so importers never index into something that is
// not there and never throw on a surprising type.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own property of an object (never one from the prototype chain), or undefined. */
export function field(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** Follows a path of own properties. */
export function fieldAt(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) current = field(current, key);
  return current;
}

/** A trimmed, non-empty string; numbers are accepted as their decimal text. */
export function str(value: unknown): string | null {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** A finite number, also from numeric text. */
export function num(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

/** A non-negative integer count, also from numeric text. */
export function count(value: unknown): number | null {
  const number = num(value);
  return number !== null && Number.isInteger(number) && number >= 0 ? number : null;
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function objects(value: unknown): JsonObject[] {
  return arr(value).filter(isObject);
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; reason: string };

// Format detection and the importer both parse a file. Parses are remembered per byte array up
// to a budget of source bytes, so a small dataset is parsed once; past the budget only the latest
// parse is kept (a single large file is still parsed once), so a dataset of thousands of files
// does not hold every parsed tree between detection and reading, whatever its size (that took
// over a gigabyte for 50,000 bills).
const CACHE_BUDGET_BYTES = 16 * 1024 * 1024;
let parsedFiles = new WeakMap<Uint8Array, JsonParse>();
let cachedBytes = 0;
let lastParsed: { bytes: Uint8Array; result: JsonParse } | null = null;

export function parseJsonBytes(bytes: Uint8Array): JsonParse {
  if (lastParsed?.bytes === bytes) return lastParsed.result;
  const cached = parsedFiles.get(bytes);
  if (cached) return cached;
  let result: JsonParse;
  try {
    result = { ok: true, value: JSON.parse(decodeUtf8(bytes)) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    result = { ok: false, reason: `Malformed JSON: ${message}` };
  }
  lastParsed = { bytes, result };
  if (cachedBytes + bytes.length <= CACHE_BUDGET_BYTES) {
    cachedBytes += bytes.length;
    parsedFiles.set(bytes, result);
  }
  return result;
}

/** The JSON in UTF-8 bytes, or undefined when they are not JSON: for a schema to refuse. */
export function jsonOrUndefined(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decodeUtf8(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

/** Lets go of the remembered parses, once the files they belong to are done with. */
export function forgetParsedJson(): void {
  lastParsed = null;
  parsedFiles = new WeakMap();
  cachedBytes = 0;
}

/** Whether the text, after leading whitespace, starts like a JSON object or array. */
export function looksLikeJson(head: string): boolean {
  const first = head.trimStart()[0];
  return first === '{' || first === '[';
}
