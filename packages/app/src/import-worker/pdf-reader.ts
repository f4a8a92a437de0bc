import { pdfText } from '@docket/core/text';
import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';

// pdf.js for "Get text" on a PDF version: this module is imported only when a PDF arrives, so
// neither pdf.js nor its worker is in any screen's first script. Parsing runs in pdf.js's worker
// (pdf-worker.ts), started once per page and kept for the next PDF.

let port: Worker | null = null;

/** The text of a PDF's pages; `onPage` after each one. */
export function readPdf(bytes: Uint8Array, onPage: (done: number, total: number) => void) {
  port ??= new Worker(new URL('./pdf-worker.ts', import.meta.url), {
    type: 'module',
    name: 'docket-pdf',
  });
  GlobalWorkerOptions.workerPort = port;
  return pdfText(getDocument, bytes, onPage);
}
