// Open States names jurisdictions in words ("North Carolina") in its bulk files, and LegiScan
// and the CLI use postal codes; Docket writes every US jurisdiction as 'us' or 'us-<code>'.

const STATES: readonly (readonly [code: string, name: string])[] = [
  ['al', 'Alabama'],
  ['ak', 'Alaska'],
  ['az', 'Arizona'],
  ['ar', 'Arkansas'],
  ['ca', 'California'],
  ['co', 'Colorado'],
  ['ct', 'Connecticut'],
  ['de', 'Delaware'],
  ['fl', 'Florida'],
  ['ga', 'Georgia'],
  ['hi', 'Hawaii'],
  ['id', 'Idaho'],
  ['il', 'Illinois'],
  ['in', 'Indiana'],
  ['ia', 'Iowa'],
  ['ks', 'Kansas'],
  ['ky', 'Kentucky'],
  ['la', 'Louisiana'],
  ['me', 'Maine'],
  ['md', 'Maryland'],
  ['ma', 'Massachusetts'],
  ['mi', 'Michigan'],
  ['mn', 'Minnesota'],
  ['ms', 'Mississippi'],
  ['mo', 'Missouri'],
  ['mt', 'Montana'],
  ['ne', 'Nebraska'],
  ['nv', 'Nevada'],
  ['nh', 'New Hampshire'],
  ['nj', 'New Jersey'],
  ['nm', 'New Mexico'],
  ['ny', 'New York'],
  ['nc', 'North Carolina'],
  ['nd', 'North Dakota'],
  ['oh', 'Ohio'],
  ['ok', 'Oklahoma'],
  ['or', 'Oregon'],
  ['pa', 'Pennsylvania'],
  ['ri', 'Rhode Island'],
  ['sc', 'South Carolina'],
  ['sd', 'South Dakota'],
  ['tn', 'Tennessee'],
  ['tx', 'Texas'],
  ['ut', 'Utah'],
  ['vt', 'Vermont'],
  ['va', 'Virginia'],
  ['wa', 'Washington'],
  ['wv', 'West Virginia'],
  ['wi', 'Wisconsin'],
  ['wy', 'Wyoming'],
  ['dc', 'District of Columbia'],
  ['pr', 'Puerto Rico'],
  ['gu', 'Guam'],
  ['vi', 'Virgin Islands'],
  ['as', 'American Samoa'],
  ['mp', 'Northern Mariana Islands'],
];

const CODES = new Set(STATES.map(([code]) => code));
const BY_NAME = new Map(STATES.map(([code, name]) => [name.toLowerCase(), code]));

/** 'us-nc' for "North Carolina", 'us' for "United States", null for anything else. */
export function jurisdictionFromName(name: string): string | null {
  const key = name.trim().toLowerCase();
  if (key === 'united states' || key === 'us congress' || key === 'congress') return 'us';
  const code = BY_NAME.get(key);
  return code === undefined ? null : `us-${code}`;
}

export function isUsStateCode(code: string): boolean {
  return CODES.has(code.toLowerCase());
}

/**
 * The jurisdiction of an Open Civic Data id ('ocd-division/country:us/state:nc',
 * 'ocd-jurisdiction/country:us/government'), or null.
 */
export function jurisdictionFromOcdId(id: string): string | null {
  const match = /country:([a-z]{2})(?:\/(?:state|district|territory):([a-z]{2}))?/.exec(id);
  if (!match?.[1]) return null;
  return match[2] ? `${match[1]}-${match[2]}` : match[1];
}

const NAMES = new Map(STATES.map(([code, name]) => [`us-${code}`, name]));

/**
 * The jurisdiction's name as people say it: 'U.S. Congress' for 'us', 'Alaska' for 'us-ak'. A
 * code Docket does not know (another country's, a city's) is shown as its code in capitals.
 */
export function jurisdictionName(code: string): string {
  const key = code.trim().toLowerCase();
  if (key === 'us') return 'U.S. Congress';
  return NAMES.get(key) ?? code.toUpperCase();
}
