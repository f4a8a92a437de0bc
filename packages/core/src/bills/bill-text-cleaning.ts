import { billLimits } from './bill-vocabulary.ts';

// Text, dates, times and links as sources write them, made clean: what finalizeBill (bill.ts) and
// the importers apply to every value before the schema sees it.

export function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < 1000 || month < 1 || month > 12 || day < 1) return false;
  // Every action of every bill passes here: the calendar by arithmetic, not a Date each time.
  if (day <= 28) return true;
  if (month === 2) {
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    return day <= (leap ? 29 : 28);
  }
  return day <= (month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31);
}

/**
 * YYYY-MM-DD from the date forms sources use: '2019-01-03', '2019-01-03T05:00:00Z',
 * '2025-01-03T23:21:55+00:00', '2012-02-21 00:00:00' and US '01/03/2019'. The calendar date is
 * the one written in the source (its own time zone), which is what the legislature meant.
 * Anything else, including LegiScan's '0000-00-00', is no date.
 */
export function toIsoDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const iso = /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.exec(text);
  if (iso?.[1]) return isIsoDate(iso[1]) ? iso[1] : null;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (us?.[1] && us[2] && us[3]) {
    const date = `${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}`;
    return isIsoDate(date) ? date : null;
  }
  return null;
}

// Control characters other than tab and newline have no business in bill text, and some of
// them break terminals, CSV readers and XML writers downstream.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

// Whatever cleanLine would change: a control character, whitespace other than a plain space, two
// spaces in a row, or a space at either end. Most text has none of these and is returned as it is
// (no flag: `test` on a global regex would carry its position from one call to the next).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const LINE_TO_CLEAN = /[\u0000-\u001F\u007F]|[^\S ]| {2}|^ | $/;

/** One line of text: whitespace runs become one space; empty becomes null. */
export function cleanLine(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (!LINE_TO_CLEAN.test(value)) return value === '' ? null : value;
  const text = value.replace(CONTROL_CHARACTERS, '').replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}

/** A block of text: line breaks kept, trailing spaces and runs of blank lines trimmed. */
export function cleanBlock(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const lines = value.replace(/\r\n?/g, '\n').replace(CONTROL_CHARACTERS, '').split('\n');
  // trimEnd per line rather than a regex: a regex over a long run of spaces backtracks badly.
  const text = lines
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text === '' ? null : text;
}

/** Only http(s) links survive: a bill file must not be able to plant a javascript: link. */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const url = value.trim();
  if (url.length > billLimits.url || !/^https?:\/\/[^\s]+$/i.test(url)) return null;
  return url;
}

/** '17:27:30', '17:27', '07:15PM' or '7:15 pm' as 'HH:MM:SS'; null for anything else. */
export function timeOfDay(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/.exec(value.trim());
  if (!match?.[1] || !match[2]) return null;
  let hours = Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = Number(match[3] ?? '0');
  const half = match[4]?.toUpperCase();
  if (half !== undefined) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (half === 'PM' ? 12 : 0);
  }
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(hours)}:${two(minutes)}:${two(seconds)}`;
}

/** The time of day a timestamp is written with ('2019-04-15T16:33:01-04:00' gives '16:33:01'),
 *  in the zone it is written in, as its date is; null for a bare date. */
export function timeOfTimestamp(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^\d{4}-\d{2}-\d{2}[T ](\d{2}:\d{2}(?::\d{2})?)/.exec(value.trim());
  return match?.[1] ? timeOfDay(match[1]) : null;
}

/** Distinct titles other than the bill's own, ignoring case and spacing, in the source's order. */
export function cleanAlternativeTitles(
  titles: readonly (string | null)[],
  title: string,
): string[] | undefined {
  const seen = new Set([title.toLowerCase()]);
  const kept: string[] = [];
  for (const candidate of titles) {
    const clean = cleanLine(candidate);
    if (clean === null || clean.length > billLimits.title || seen.has(clean.toLowerCase()))
      continue;
    seen.add(clean.toLowerCase());
    kept.push(clean);
    if (kept.length === 1_000) break;
  }
  return kept.length === 0 ? undefined : kept;
}
