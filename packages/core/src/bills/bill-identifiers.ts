import { isUsStateCode, jurisdictionFromName, jurisdictionFromOcdId } from './us-jurisdictions.ts';

// Where a bill belongs and what it is called: jurisdictions as 'us' or 'us-<code>', bill types
// and numbers read from the many ways people write them, and the id built from those parts.

/**
 * 'us' for Congress and 'us-<code>' for states and territories. Accepts those forms, a bare
 * postal code ('CA'), a name ('North Carolina') or an Open Civic Data id; other lower-case
 * codes such as 'ca-on' pass through for non-US sources.
 */
export function normalizeJurisdiction(value: string): string | null {
  const text = value.trim();
  const lower = text.toLowerCase();
  if (lower === 'us') return 'us';
  if (/^[a-z]{2}$/.test(lower)) return isUsStateCode(lower) ? `us-${lower}` : null;
  if (/^us-[a-z]{2}$/.test(lower)) return isUsStateCode(lower.slice(3)) ? lower : null;
  if (lower.startsWith('ocd-')) return jurisdictionFromOcdId(lower);
  if (/^[a-z]{2}(-[a-z0-9]{1,12}){1,2}$/.test(lower)) return lower;
  return jurisdictionFromName(text);
}

/** A bill's type and number, the parts its id is built from. */
export interface BillNumbering {
  /** Lower case letters (and digits after the first letter): 'sjres', 'hb', 'sbx2'. */
  type: string;
  /** Digits without leading zeros, then an optional upper-case letter: '1', '1044', '12A'. */
  number: string;
}

const CONGRESS_LABELS: Readonly<Record<string, string>> = {
  hr: 'H.R.',
  s: 'S.',
  hres: 'H.Res.',
  sres: 'S.Res.',
  hjres: 'H.J.Res.',
  sjres: 'S.J.Res.',
  hconres: 'H.Con.Res.',
  sconres: 'S.Con.Res.',
};

// Only the spelling GovInfo itself uses ('H' for a House bill) is an alias; other sources'
// private vocabularies (LegiScan's 'HB' for H.R.) are translated in their importers.
const CONGRESS_ALIASES: Readonly<Record<string, string>> = { h: 'hr' };

// States' bill types written out in words, as legislatures' own pages and journals write them
// ("House Bill 5", "Senate Joint Resolution 3"), to the abbreviations their numbering uses.
const STATE_LONG_FORMS: readonly [RegExp, string][] = [
  [/^(HOUSE|SENATE|ASSEMBLY) JOINT RESOLUTION\b/, '$1JR'],
  [/^(HOUSE|SENATE|ASSEMBLY) CONCURRENT RESOLUTION\b/, '$1CR'],
  [/^(HOUSE|SENATE|ASSEMBLY) (BILL|RESOLUTION|FILE)\b/, '$1$2'],
  [/^LEGISLATIVE (BILL|DOCUMENT)\b/, 'L$1'],
];
const CHAMBER_LETTERS: Readonly<Record<string, string>> = {
  HOUSE: 'H',
  SENATE: 'S',
  ASSEMBLY: 'A',
  BILL: 'B',
  RESOLUTION: 'R',
  FILE: 'F',
  DOCUMENT: 'D',
};

function stateLongForm(text: string): string {
  for (const [pattern, replacement] of STATE_LONG_FORMS) {
    if (!pattern.test(text)) continue;
    return text.replace(pattern, (...groups: unknown[]) =>
      replacement.replace(/\$(\d)/g, (_, at: string) => {
        const word = groups[Number(at)];
        return typeof word === 'string' ? (CHAMBER_LETTERS[word] ?? word) : '';
      }),
    );
  }
  return text;
}

/**
 * Splits an identifier as people and sources write it ("S.J.Res. 1", "SJRES 1", "sjres1",
 * "HB 1044", "SBX2 5", Texas's "S.B. No. 5", "HB0001", "SB 2-A", and for states "House Bill 5")
 * into type and number. Dots, hyphens and underscores are ignored, and so is a number sign
 * ("No.", "#"); a space before a digit, when there is one, marks where the number starts, which
 * keeps "SBX2 5" apart from "SBX 25". Returns null for anything that is not letters followed by a
 * number.
 */
export function parseBillIdentifier(
  raw: string,
  jurisdiction: string | null,
): BillNumbering | null {
  if (raw.length > 100) return null;
  const spaced = raw
    .normalize('NFKC')
    .toUpperCase()
    // Between digits a hyphen or dot joins them, as it always has (ids must not move).
    .replace(/(\d)[.\-_](?=\d)/g, '$1')
    .replace(/[.\-_]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    // "S.B. No. 5", "HB #12": the number sign is no part of the type.
    .replace(/ ?(?:\bNO|\bNUMBER|#) ?(?=\d)/, ' ')
    .trim();
  const worded = jurisdiction === 'us' ? spaced : stateLongForm(spaced);
  const compact = worded
    // Hyphens and dots join ("H-1234", "S.J.Res.1"); a space only where one was written.
    .replace(/(\d) (?=[A-Z]$)/, '$1')
    // "S. J. Res. 1" is written with spaces between the letter groups.
    .replace(/([A-Z]) (?=[A-Z])/g, '$1');
  const match = /^([A-Z][A-Z0-9]*?) ?0*(\d+)([A-Z]?)$/.exec(compact);
  if (!match?.[1] || match[2] === undefined) return null;
  let type = match[1].toLowerCase();
  if (jurisdiction === 'us') type = CONGRESS_ALIASES[type] ?? type;
  if (type.length > 20 || match[2].length > 10) return null;
  return { type, number: `${match[2]}${match[3] ?? ''}` };
}

/** The identifier as people write it: "S.J.Res. 1" for Congress, "HB 1044" for states. */
export function formatBillIdentifier(jurisdiction: string, numbering: BillNumbering): string {
  const label = jurisdiction === 'us' ? CONGRESS_LABELS[numbering.type] : undefined;
  return `${label ?? numbering.type.toUpperCase()} ${numbering.number}`;
}

// An import's thousands of bills share a few sessions: each is slugged once. Bounded, so a file
// of endless distinct sessions cannot grow it without end.
const slugs = new Map<string, string>();

/** Lower-case letters and digits of a session name, joined by hyphens. */
export function sessionSlug(session: string): string {
  const known = slugs.get(session);
  if (known !== undefined) return known;
  const slug = session
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .replace(/-+$/, '');
  if (slugs.size < 1_000) slugs.set(session, slug);
  return slug;
}

/**
 * The stable id: jurisdiction, session and normalized type and number, and nothing else, so the
 * same bill read from two sources (or re-imported next week) is the same record.
 * Example: 'us/116/sjres-1'.
 */
export function billId(jurisdiction: string, session: string, numbering: BillNumbering): string {
  return `${jurisdiction}/${sessionSlug(session)}/${numbering.type}-${numbering.number.toLowerCase()}`;
}
