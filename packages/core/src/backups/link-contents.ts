import { z } from 'zod';
import {
  BACKUP_FORMAT,
  BackupContentsError,
  parseBackupContents,
  type BackupContents,
} from './backup-contents.ts';

// What a public link of a backup holds, and what its page is told about it. The sharer picks,
// when making the link, whether dismissed bills, decisions (the Tracked / Later / Dismissed
// marks) and notes go in; what is left out is taken out here, before sealing, so it is absent
// from the bytes the server keeps, not merely hidden by the page that shows them.
//
// Payload, version 1 (JSON, gzipped and sealed under the link's own key by public-link-crypto.ts):
//
//   { format: "docket-public-link", version: 1,
//     name, description:  the backup's, as its owner wrote them (sealed, never sent in clear),
//     choices:            { dismissedBills, decisions, notes }: what the sharer let in,
//     contents:           a backup's contents (backup-contents.ts) with only the chosen rows,
//                         the bills those rows are about, no datasets and no clocks,
//     kind?:              "list" for a list shared from the Tracked tab ("Share"): its bills
//                         are exactly those the list showed, in its order; absent for a
//                         backup's link,
//     workspace?:         the team workspace's name when shared from a workspace's space: the
//                         page says "From <name>", never which member shared it }
//
// Links made before this format carry a bare backup ("docket-backup") and still open, without
// a name or choices.

export const LINK_FORMAT = 'docket-public-link';
export const LINK_VERSION = 1;

/** What the sharer lets into a link besides the bills they kept, their tags and positions. */
export interface LinkChoices {
  /** Bills the sharer dismissed, with their tags, positions and notes. */
  readonly dismissedBills: boolean;
  /** Whether each bill is Tracked, Later or Dismissed. */
  readonly decisions: boolean;
  /** Highlights and notes on the bills' text (annotations). */
  readonly notes: boolean;
}

/** Tracked bills with their tags, positions, marks and notes; dismissed bills stay out. */
export const defaultLinkChoices: LinkChoices = {
  dismissedBills: false,
  decisions: true,
  notes: true,
};

export const linkChoicesSchema = z.strictObject({
  dismissedBills: z.boolean(),
  decisions: z.boolean(),
  notes: z.boolean(),
});

/** The backup's own words that head the link's page. */
export interface LinkTitle {
  readonly name: string;
  readonly description: string;
  /** The team workspace it was shared from, by its name; absent from the personal space. */
  readonly workspace?: string | undefined;
}

const linkPayloadSchema = z.strictObject({
  format: z.literal(LINK_FORMAT),
  version: z.literal(LINK_VERSION),
  name: z.string().min(1).max(200),
  description: z.string().max(5000),
  choices: linkChoicesSchema,
  contents: z.unknown(),
  kind: z.literal('list').optional(),
  workspace: z.string().min(1).max(200).optional(),
});
export type LinkPayload = Omit<z.infer<typeof linkPayloadSchema>, 'contents'> & {
  readonly contents: BackupContents;
};

/** A link as its page shows it. Links made before names and choices have neither (null). */
export interface SharedLink {
  /** A backup's link, or a list shared from the Tracked tab (its page reads as a list). */
  readonly kind: 'backup' | 'list';
  readonly name: string | null;
  readonly description: string;
  /** The team workspace it was shared from; null from a personal space. */
  readonly workspace: string | null;
  /** When the backup the link was made from was taken. */
  readonly backedUpAt: string;
  readonly choices: LinkChoices | null;
  readonly contents: BackupContents;
}

/**
 * The part of a backup a link shares under `choices`. A bill goes in when the sharer decided on
 * it (tracked it or set it aside for later; dismissed it only when dismissed bills go in), tagged
 * it, took a position on it, or noted it (when notes go in); its rows go with it. Only the tags
 * those bills carry go in. Never in a link: the dataset definitions (the owner's sources, URLs
 * and file names), which datasets held each bill, and the sync clocks.
 */
export function selectLinkContents(contents: BackupContents, choices: LinkChoices): BackupContents {
  const dismissed = new Set(
    contents.decisions.filter((row) => row.decision === 'dismiss').map((row) => row.billId),
  );
  const allowed = (row: { readonly billId: string }) =>
    choices.dismissedBills || !dismissed.has(row.billId);
  const decided = contents.decisions.filter(allowed);
  const tagged = contents.billTags.filter(allowed);
  const positions = contents.positions.filter(allowed);
  const notes = choices.notes ? contents.annotations.filter(allowed) : [];
  const billIds = new Set([
    ...decided.map((row) => row.billId),
    ...tagged.map((row) => row.billId),
    ...positions.filter((row) => row.position !== 'none').map((row) => row.billId),
    ...notes.map((row) => row.billId),
  ]);
  const about = (row: { readonly billId: string }) => billIds.has(row.billId);
  const billTags = tagged.filter(about);
  const tagIds = new Set(billTags.map((row) => row.tagId));
  return {
    format: contents.format,
    version: contents.version,
    createdAt: contents.createdAt,
    datasets: [],
    tags: contents.tags.filter((tag) => tagIds.has(tag.id)),
    billTags,
    positions: positions.filter(about),
    decisions: choices.decisions ? decided.filter(about) : [],
    annotations: notes,
    bills: contents.bills
      .filter((bill) => billIds.has(bill.id))
      .map((bill) => ({ ...bill, datasetIds: [] })),
    clocks: {},
  };
}

/** The workspace's name for the payload, when the title names one. */
function workspaceOf(title: LinkTitle): { workspace?: string } {
  const name = title.workspace?.trim() ?? '';
  return name === '' ? {} : { workspace: name.slice(0, 200) };
}

/** What is sealed for a link: the backup's name and description, the choices, the selection. */
export function makeLinkPayload(
  contents: BackupContents,
  title: LinkTitle,
  choices: LinkChoices,
): LinkPayload {
  return {
    format: LINK_FORMAT,
    version: LINK_VERSION,
    name: title.name,
    description: title.description,
    ...workspaceOf(title),
    choices: { ...choices },
    contents: selectLinkContents(contents, choices),
  };
}

/**
 * What is sealed for a list shared from the Tracked tab: every bill of `contents` (a backup of
 * the list, `buildBackupContents` with `only`), in its order, with the tags, positions and
 * decisions the list's rows carry; notes only when `notes`. As for every link, no dataset
 * definitions, no datasets of bills and no clocks.
 */
export function makeListLinkPayload(
  contents: BackupContents,
  title: LinkTitle,
  options: { readonly notes: boolean },
): LinkPayload {
  return {
    format: LINK_FORMAT,
    version: LINK_VERSION,
    kind: 'list',
    name: title.name,
    description: title.description,
    ...workspaceOf(title),
    // The list chose its bills, dismissed ones included when it showed them.
    choices: { dismissedBills: true, decisions: true, notes: options.notes },
    contents: {
      ...contents,
      datasets: [],
      annotations: options.notes ? contents.annotations : [],
      bills: contents.bills.map((bill) => ({ ...bill, datasetIds: [] })),
      clocks: {},
    },
  };
}

/**
 * Checks a decrypted link as hostile, like a backup: the envelope, then every row of the
 * contents (parseBackupContents). Throws BackupContentsError with a message for the viewer.
 */
export function parseLinkPayload(value: unknown): SharedLink {
  const head = (value as { format?: unknown; version?: unknown } | null) ?? {};
  if (typeof value === 'object' && head.format === BACKUP_FORMAT) {
    const contents = parseBackupContents(value);
    return {
      kind: 'backup',
      name: null,
      description: '',
      workspace: null,
      backedUpAt: contents.createdAt,
      choices: null,
      contents,
    };
  }
  if (typeof value !== 'object' || head.format !== LINK_FORMAT) {
    throw new BackupContentsError('This link is damaged: it does not hold shared bills.');
  }
  if (typeof head.version === 'number' && head.version > LINK_VERSION) {
    throw new BackupContentsError(
      'This link was made by a newer version of Docket. Update the app to open it.',
    );
  }
  const parsed = linkPayloadSchema.safeParse(value);
  if (!parsed.success) {
    throw new BackupContentsError('This link is damaged: its name or choices are not valid.');
  }
  const contents = parseBackupContents(parsed.data.contents);
  return {
    kind: parsed.data.kind ?? 'backup',
    name: parsed.data.name,
    description: parsed.data.description,
    workspace: parsed.data.workspace ?? null,
    backedUpAt: contents.createdAt,
    choices: parsed.data.choices,
    contents,
  };
}

/** How many bills of each decision a link holds, and its tags, positions and notes. */
export interface LinkCounts {
  readonly bills: number;
  readonly tracked: number;
  readonly later: number;
  readonly dismissed: number;
  /** Bills without a decision in the link: undecided, or the marks were left out. */
  readonly undecided: number;
  readonly tags: number;
  readonly positions: number;
  readonly notes: number;
}

/** LinkCounts as stored beside a link's key on the device that made it (never on the server). */
export const linkCountsSchema = z.strictObject({
  bills: z.number().int().nonnegative(),
  tracked: z.number().int().nonnegative(),
  later: z.number().int().nonnegative(),
  dismissed: z.number().int().nonnegative(),
  undecided: z.number().int().nonnegative(),
  tags: z.number().int().nonnegative(),
  positions: z.number().int().nonnegative(),
  notes: z.number().int().nonnegative(),
});

export function countLink(contents: BackupContents): LinkCounts {
  const decisionOf = new Map(contents.decisions.map((row) => [row.billId, row.decision]));
  const counts = { tracked: 0, later: 0, dismissed: 0, undecided: 0 };
  for (const bill of contents.bills) {
    const decision = decisionOf.get(bill.id);
    if (decision === 'track') counts.tracked += 1;
    else if (decision === 'later') counts.later += 1;
    else if (decision === 'dismiss') counts.dismissed += 1;
    else counts.undecided += 1;
  }
  return {
    bills: contents.bills.length,
    ...counts,
    tags: contents.tags.length,
    positions: contents.positions.filter((row) => row.position !== 'none').length,
    notes: contents.annotations.length,
  };
}

function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/**
 * What a link holds, in words: "12 tracked bills, 4 tags, notes included". Without the
 * decisions the bills are counted as bills; left-out notes and decisions are said.
 */
export function describeLink(link: Pick<SharedLink, 'choices' | 'contents'>): string {
  return describeLinkCounts(countLink(link.contents), link.choices);
}

/** `describeLink` from the counts and choices alone: what the list of a backup's links says of
 *  each link, from what the device that made it kept (the server holds only ciphertext). */
export function describeLinkCounts(counts: LinkCounts, choices: LinkChoices | null): string {
  const decisions = choices?.decisions ?? true;
  const notes = choices?.notes ?? true;
  const parts: string[] = [];
  if (decisions) {
    if (counts.tracked > 0) parts.push(plural(counts.tracked, 'tracked bill', 'tracked bills'));
    if (counts.later > 0) parts.push(plural(counts.later, 'bill for later', 'bills for later'));
    if (counts.dismissed > 0) {
      parts.push(plural(counts.dismissed, 'dismissed bill', 'dismissed bills'));
    }
    if (counts.undecided > 0) {
      const undecided = parts.length === 0 ? ['bill', 'bills'] : ['other bill', 'other bills'];
      parts.push(plural(counts.undecided, undecided[0] ?? '', undecided[1] ?? ''));
    }
  } else if (counts.bills > 0) {
    parts.push(plural(counts.bills, 'bill', 'bills'));
  }
  if (parts.length === 0) parts.push('no bills');
  if (counts.tags > 0) parts.push(plural(counts.tags, 'tag', 'tags'));
  if (counts.positions > 0) parts.push(plural(counts.positions, 'position', 'positions'));
  if (!notes) parts.push('notes left out');
  else if (counts.notes > 0) parts.push('notes included');
  if (!decisions) parts.push('decisions left out');
  return parts.join(', ');
}
