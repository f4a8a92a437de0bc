// The words a bill is described in: its statuses, the formats it comes from, chambers and
// sponsor roles, and the size limits every field is held to (bill.ts's schema enforces them).

/** The common status vocabulary; each source's own status maps onto it (bill-status-mapping.ts). */
export const billStatuses = [
  'introduced',
  'in-committee',
  'passed-one-chamber',
  'passed-both',
  'enacted',
  'vetoed',
  'failed',
  'other',
] as const;
export type BillStatus = (typeof billStatuses)[number];

/** The format a bill was read from. */
export const billSources = [
  'legiscan',
  'openstates',
  'billstatus',
  'congress-json',
  'docket-csv',
] as const;
export type BillSource = (typeof billSources)[number];

/** Open States' chamber words: upper (Senate), lower (House/Assembly), the whole legislature
 *  (unicameral bodies, joint committees) and the executive (governor, President). */
export const chambers = ['upper', 'lower', 'legislature', 'executive'] as const;
export type Chamber = (typeof chambers)[number];

/** 'sponsor' is for sources that do not say whether a sponsor is the primary one. */
export const sponsorRoles = ['primary', 'sponsor', 'cosponsor'] as const;
export type SponsorRole = (typeof sponsorRoles)[number];

/** Size limits: generous for real legislation, small enough that a hostile file cannot make one
 *  record hold the whole heap. A record over a limit is refused with the field's name. */
export const billLimits = {
  shortText: 500,
  title: 20_000,
  actionText: 20_000,
  summary: 5_000_000,
  textBody: 20_000_000,
  url: 2_000,
  listItems: 20_000,
} as const;
