import { readDevicePreferences } from '@docket/core/device';
import type { LocalStore, VersionText } from '@docket/core/store';
import {
  markupVersionText,
  NOT_A_TEXT_FORMAT,
  saveVersionText,
  sniffVersionFormat,
  type StructuredText,
} from '@docket/core/text';
import {
  downloadFailure,
  downloadSource,
  type SourceFetch,
  type SourceRequest,
} from './source-download.ts';
import { downloadLegiscanBillText, fromLegiscanApi } from './legiscan-bill-text.ts';

// "Get text": a bill's text version downloaded from the URL its source links, the way a dataset
// is (source-download.ts: directly where the site allows it, else through the Docket server's
// relay unless the user turned it off), or, for a version with a LegiScan doc_id of a bill from a
// dataset of LegiScan's API, through getBillText with the user's key (legiscan-bill-text.ts); made
// structured text (HTML, XML and plain text here; a
// PDF through pdf.js, loaded only then) and kept on this device.

/** Bill texts run to a few megabytes; a "version" much larger is not one. */
export const MAX_VERSION_BYTES = 50 * 1024 * 1024;

const REFUSED_NO_RELAY =
  'the site does not let other sites download it (CORS), and downloads through the Docket server are turned off in Settings. Turn them on, or read it through "Original document".';

export type GetTextProgress =
  { step: 'downloading' } | { step: 'reading' } | { step: 'pdf'; page: number; pages: number };

export interface GetTextDeps {
  store: LocalStore;
  fetch: SourceFetch;
  /** The Docket server's relay (used only while the user's preference allows it); null: none. */
  relay: ((request: SourceRequest) => Promise<Response>) | null;
  now: () => string;
  /** pdf.js, loaded by the caller when first needed (the page's "Get text": pdf-reader.ts); kept
   *  out of this module so the import worker and the service worker do not bundle it. */
  readPdf: (
    bytes: Uint8Array,
    onPage: (done: number, total: number) => void,
  ) => Promise<StructuredText>;
}

/** Downloads, reads and keeps one version; throws an error whose message says why not. */
export async function getVersionText(
  version: { billId: string; index: number; url: string; docId?: number | undefined },
  deps: GetTextDeps,
  onProgress: (progress: GetTextProgress) => void,
): Promise<VersionText> {
  const { url, docId } = version;
  onProgress({ step: 'downloading' });
  const preferences = await deps.store.read(['settings'], readDevicePreferences);
  const relay = preferences.sourceRelay ? deps.relay : null;
  const { bytes, mime } =
    docId !== undefined && (await fromLegiscanApi(deps.store, version.billId))
      ? await downloadLegiscanBillText(
          docId,
          deps.store,
          { fetch: deps.fetch, relay },
          MAX_VERSION_BYTES,
        )
      : { bytes: await downloadFromUrl(url, deps, relay), mime: null };
  return readAndKeep(
    { billId: version.billId, index: version.index, url },
    bytes,
    mime,
    deps,
    onProgress,
  );
}

async function downloadFromUrl(
  url: string,
  deps: GetTextDeps,
  relay: GetTextDeps['relay'],
): Promise<Uint8Array> {
  const input = await downloadSource(
    { url, etag: null, lastModified: null },
    { fetch: deps.fetch, sha256Hex: () => Promise.resolve(''), relay },
    MAX_VERSION_BYTES,
  ).catch((error: unknown) => {
    // Without the relay, a refusal is the site's CORS; the dataset's way out (adding the file
    // under Files) is not this screen's, whose way is the version's own link.
    if (relay === null && error instanceof Error && error.message.includes('(CORS)')) {
      throw downloadFailure(url, REFUSED_NO_RELAY);
    }
    throw error;
  });
  if ('unchanged' in input) throw downloadFailure(url, 'the server answered 304 Not Modified');
  return input.files[0]?.bytes ?? new Uint8Array();
}

/** Reads the bytes of a version (HTML, XML, plain text, PDF) and keeps its text on the device. */
async function readAndKeep(
  version: { billId: string; index: number; url: string },
  bytes: Uint8Array,
  /** The type the source says the document is (LegiScan's `mime`), for the refusal's words. */
  declared: string | null,
  deps: GetTextDeps,
  onProgress: (progress: GetTextProgress) => void,
): Promise<VersionText> {
  const { url } = version;
  const format = sniffVersionFormat(bytes);
  if (format === null) {
    throw new Error(
      `Could not read ${url}: ${NOT_A_TEXT_FORMAT}${declared === null ? '' : ` (LegiScan keeps it as ${declared})`}.`,
    );
  }
  onProgress({ step: 'reading' });
  let text: StructuredText;
  if (format === 'pdf') {
    try {
      text = await deps.readPdf(bytes, (page, pages) => {
        onProgress({ step: 'pdf', page, pages });
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Could not read the PDF at ${url}: ${reason}.`);
    }
  } else {
    const read = markupVersionText(bytes, format);
    if (!read.ok) throw new Error(`Could not read ${url}: ${read.reason}.`);
    text = read.text;
  }
  if (text.text.trim() === '') {
    throw new Error(
      `Could not read ${url}: it holds no text${format === 'pdf' ? ' (a scanned PDF is pictures of pages)' : ''}.`,
    );
  }
  return saveVersionText(deps.store, { ...version, format, text, fetchedAt: deps.now() });
}
