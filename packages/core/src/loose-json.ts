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

// Format detection and the importer both need a file's JSON; parsing once and remembering the
// result per byte array keeps large imports from paying twice.
const parsedFiles = new WeakMap<Uint8Array, JsonParse>();

export function parseJsonBytes(bytes: Uint8Array): JsonParse {
  const cached = parsedFiles.get(bytes);
  if (cached) return cached;
  let result: JsonParse;
  try {
    result = { ok: true, value: JSON.parse(decodeUtf8(bytes)) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    result = { ok: false, reason: `Malformed JSON: ${message}` };
  }
  parsedFiles.set(bytes, result);
  return result;
}

/** Whether the text, after leading whitespace, starts like a JSON object or array. */
export function looksLikeJson(head: string): boolean {
  const first = head.trimStart()[0];
  return first === '{' || first === '[';
}
