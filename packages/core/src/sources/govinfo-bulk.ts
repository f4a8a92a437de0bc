import { congressBillTypes } from '../bills/bill-naming.ts';
import { z } from 'zod';
import { jsonOrUndefined } from '../encoding/loose-json.ts';

// GovInfo's bulk data repository (https://www.govinfo.gov/bulkdata, the usgpo/bulk-data and
// usgpo/bill-status user guides): BILLSTATUS XML, one file per bill, in a folder per Congress and
// bill type. Adding /json after /bulkdata gives the folder's listing as JSON (the request must
// say `Accept: application/json`, else GovInfo may answer 406):
//
//   GET https://www.govinfo.gov/bulkdata/json/BILLSTATUS/118/hr
//     {"files":[{"displayLabel":"BILLSTATUS-118hr1.xml","fileExtension":"xml","folder":false,
//       "formattedLastModifiedTime":"30-Jan-2025 15:07","formattedSize":"7.9 KB",
//       "justFileName":"BILLSTATUS-118hr1.xml",
//       "link":"https://www.govinfo.gov/bulkdata/BILLSTATUS/118/hr/BILLSTATUS-118hr1.xml",
//       "mimeType":"application/xml","name":"BILLSTATUS-118hr1.xml","size":8109}, …,
//       {"justFileName":"BILLSTATUS-118-hr.zip", …, "link":"…/BILLSTATUS-118-hr.zip", …}]}
//
// `formattedLastModifiedTime` is the file's last change in GMT, to the minute. No key is needed.
// The first import reads the folder's ZIP (one request) where the listing has one, else every
// file; a refresh reads only the files whose listed time is at or after the newest time the last
// import read (the same minute again: a file changed later in that minute is listed with it), and
// the import keeps the dataset's other bills. A listing identical to the last one (its hash) is
// "No changes" after that one request.

export const GOVINFO_BULK_URL = 'https://www.govinfo.gov/bulkdata/';

/** Bill types of BILLSTATUS folders, as GovInfo spells them: Congress's measure types. */
export const govInfoBillTypes = congressBillTypes;
export type GovInfoBillType = (typeof govInfoBillTypes)[number];

/** A refresh that finds more changed files than this reads the folder's ZIP instead, where
 *  there is one. */
export const GOVINFO_MAX_CHANGED_FILES = 500;

/** Whether `value` is a Congress Docket can ask GovInfo or congress.gov about (93rd on). */
export function isCongressNumber(value: number): boolean {
  return Number.isInteger(value) && value >= 93 && value <= 200;
}

export function isGovInfoBillType(value: string): value is GovInfoBillType {
  return (govInfoBillTypes as readonly string[]).includes(value);
}

/** The JSON listing of one Congress's BILLSTATUS files of one bill type. */
export function govInfoListingUrl(congress: number, billType: string): string {
  return `${GOVINFO_BULK_URL}json/BILLSTATUS/${congress}/${billType}`;
}

const listingSchema = z.object({
  files: z.array(
    z.object({
      justFileName: z.string().optional(),
      name: z.string().optional(),
      link: z.string(),
      folder: z.boolean().optional(),
      formattedLastModifiedTime: z.string().optional(),
      size: z.number().optional(),
    }),
  ),
});

export interface GovInfoListedFile {
  name: string;
  url: string;
  /** The listed last change, milliseconds since the epoch (to the minute); null when unread. */
  modified: number | null;
  size: number | null;
}

export interface GovInfoListing {
  /** The folder's BILLSTATUS XML files, in the listing's order. */
  files: GovInfoListedFile[];
  /** The folder's ZIP of all of them, when listed. */
  zip: GovInfoListedFile | null;
  /** The listing as lines of name, time and size, for its hash. */
  signature: string;
}

/** Why GovInfo gave no bills, in words the job shows as they are. */
export class GovInfoBulkError extends Error {
  constructor(
    readonly code: 'unexpected' | 'rate-limited' | 'empty',
    message: string,
  ) {
    super(message);
    this.name = 'GovInfoBulkError';
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "30-Jan-2025 15:07" (GMT) as milliseconds, null when it is not that shape. */
export function parseGovInfoTime(text: string | undefined): number | null {
  const match = /^(\d{1,2})-([A-Z][a-z]{2})-(\d{4}) (\d{2}):(\d{2})(?::(\d{2}))?$/.exec(
    text?.trim() ?? '',
  );
  if (match === null) return null;
  const month = MONTHS.indexOf(match[2] ?? '');
  if (month < 0) return null;
  const ms = Date.UTC(
    Number(match[3]),
    month,
    Number(match[1]),
    Number(match[4]),
    Number(match[5]),
    Number(match[6] ?? '0'),
  );
  return Number.isNaN(ms) ? null : ms;
}

/** A listing's files: the BILLSTATUS XML files and the ZIP; throws when it is not a listing. */
export function parseGovInfoListing(body: Uint8Array): GovInfoListing {
  const parsed = listingSchema.safeParse(jsonOrUndefined(body));
  if (!parsed.success) {
    throw new GovInfoBulkError(
      'unexpected',
      'GovInfo answered the bulk data listing with something Docket cannot read.',
    );
  }
  const files: GovInfoListedFile[] = [];
  let zip: GovInfoListedFile | null = null;
  const lines: string[] = [];
  for (const entry of parsed.data.files) {
    if (entry.folder === true) continue;
    const name =
      entry.justFileName ?? entry.name ?? entry.link.slice(entry.link.lastIndexOf('/') + 1);
    if (!/^https:\/\/www\.govinfo\.gov\//.test(entry.link)) continue;
    const file: GovInfoListedFile = {
      name,
      url: entry.link,
      modified: parseGovInfoTime(entry.formattedLastModifiedTime),
      size: entry.size ?? null,
    };
    if (/^BILLSTATUS-[0-9]+[a-z]+[0-9]+\.xml$/i.test(name)) files.push(file);
    else if (/^BILLSTATUS-.*\.zip$/i.test(name)) zip = file;
    else continue;
    lines.push(`${name}\t${entry.formattedLastModifiedTime ?? ''}\t${entry.size ?? ''}`);
  }
  return { files, zip, signature: lines.join('\n') };
}

export interface GovInfoRead {
  /** What to download: the ZIP, or the XML files that changed. */
  files: GovInfoListedFile[];
  /** The newest listed time among what is read: the next refresh reads from it on. */
  since: number | null;
  /** Only some of the bills are read: the dataset keeps the others. */
  partial: boolean;
  /** What is read holds every change the listing shows: false when a file is listed as changed
   *  at or after the ZIP was built, so the next refresh must not take the same listing for "No
   *  changes". */
  complete: boolean;
}

/**
 * What an import reads of a listing: with no `since` (the first import), the ZIP where there is
 * one, else every file; after, the files listed at or after `since`, or the ZIP when more than
 * GOVINFO_MAX_CHANGED_FILES changed. A file whose time is unreadable is read every time.
 */
export function govInfoFilesToRead(listing: GovInfoListing, since: number | null): GovInfoRead {
  const newest = (files: readonly GovInfoListedFile[]) =>
    files.reduce<number | null>(
      (max, file) =>
        file.modified !== null && (max === null || file.modified > max) ? file.modified : max,
      since,
    );
  const whole = (): GovInfoRead => {
    const zip = listing.zip;
    if (zip === null) {
      return { files: listing.files, since: newest(listing.files), partial: false, complete: true };
    }
    const built = zip.modified;
    const complete =
      built !== null &&
      listing.files.every((file) => file.modified !== null && file.modified < built);
    return { files: [zip], since: built, partial: false, complete };
  };
  if (since === null) return whole();
  const changed = listing.files.filter((file) => file.modified === null || file.modified >= since);
  if (changed.length > GOVINFO_MAX_CHANGED_FILES && listing.zip !== null) return whole();
  return { files: changed, since: newest(changed), partial: true, complete: true };
}
