// The public face of encoding/ for the other packages (README.md); inside core, files import each other directly.
export { decodeBase64, encodeBase64 } from './base64.ts';
export { decodeUtf8, printable } from './text-bytes.ts';
export { crc32, defaultImportLimits } from './zip-archive.ts';
export { inflateWithin } from './zip-entry-inflate.ts';
