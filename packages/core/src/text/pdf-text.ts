import type { StructuredText } from './html-to-text.ts';
import { plainStructuredText } from './version-text.ts';

// A PDF's text through pdf.js, which the caller hands in (the app loads it lazily and runs its
// parser in pdf.js's own worker; core's tests load the Node build): only the few calls used
// here are named, so core does not depend on how pdf.js is loaded. The text items of each page
// are joined into lines by pdf.js's end-of-line flags and, where a producer leaves them out, by a
// change of baseline; pages are set off by a blank line.

interface PdfTextItem {
  str: string;
  hasEOL?: boolean;
  transform?: number[];
}

interface PdfPage {
  getTextContent(): Promise<{ items: readonly (PdfTextItem | { type: string })[] }>;
  cleanup?(): unknown;
}

interface PdfDocument {
  numPages: number;
  getPage(number: number): Promise<PdfPage>;
}

/** pdf.js's getDocument, as far as it is used here. */
export type PdfGetDocument = (source: {
  data: Uint8Array;
  isEvalSupported: boolean;
  useSystemFonts?: boolean;
  disableFontFace?: boolean;
}) => { promise: Promise<PdfDocument>; destroy(): Promise<void> };

/** Bills run to a few thousand pages; past this many the PDF is refused rather than read. */
export const MAX_PDF_PAGES = 5_000;

function pageLines(items: readonly (PdfTextItem | { type: string })[]): string {
  let out = '';
  let lastY: number | null = null;
  for (const item of items) {
    if (!('str' in item)) continue;
    const y = item.transform?.[5] ?? null;
    if (lastY !== null && y !== null && Math.abs(y - lastY) > 1 && !out.endsWith('\n')) {
      out += '\n';
    }
    out += item.str;
    if (item.hasEOL === true) out += '\n';
    if (y !== null) lastY = y;
  }
  return out;
}

/** The text of a PDF's pages, structured like any other version's; `onPage` after each page. */
export async function pdfText(
  getDocument: PdfGetDocument,
  bytes: Uint8Array,
  onPage: (done: number, total: number) => void = () => undefined,
): Promise<StructuredText> {
  // pdf.js takes the buffer over (transfers it to its worker): it gets a copy.
  const task = getDocument({ data: bytes.slice(), isEvalSupported: false, disableFontFace: true });
  try {
    const document = await task.promise;
    if (document.numPages > MAX_PDF_PAGES) {
      throw new Error(`it has ${document.numPages} pages, more than the ${MAX_PDF_PAGES} read`);
    }
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      pages.push(pageLines((await page.getTextContent()).items));
      page.cleanup?.();
      onPage(number, document.numPages);
    }
    return plainStructuredText(pages.join('\n\n'));
  } finally {
    await task.destroy();
  }
}
