// pdf.js's parser in a worker of its own (pdf-reader.ts starts it): the module sets itself up
// as pdf.js's worker when it is loaded in one.
import 'pdfjs-dist/build/pdf.worker.min.mjs';
