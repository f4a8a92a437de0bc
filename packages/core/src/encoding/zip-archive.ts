import { decodeUtf8 } from './text-bytes.ts';
import type { ImportError, ImportFile } from './import-file.ts';
import { byteSizeLabel, inflateWithin } from './zip-entry-inflate.ts';

// Datasets come zipped (LegiScan session datasets, GovInfo bulk BILLSTATUS, Open States CSV).
// A ZIP can lie about everything, so the central directory is read first to refuse an archive
// that would expand past the limits before anything is inflated; then each entry, when it is
// read, is inflated under a budget of its declared size (zip-entry-inflate.ts: inflating stops as
// soon as an entry gives more than it declared, so a lying size costs no more than the truth),
// and its CRC-32 is checked so a damaged entry is reported instead of being imported with flipped
// bytes. An entry that declares a large size from few compressed bytes (200 MB of whitespace in
// 200 KB) is refused by its expansion ratio before anything is inflated. Entries are read one at a time, so an
// import holds one entry's bytes, not the whole expanded archive.

export interface ImportLimits {
  /** Entries in one archive. */
  maxEntries: number;
  /** Bytes of all files together, after expansion. */
  maxTotalBytes: number;
  /** Bytes of one file or one archive entry. */
  maxFileBytes: number;
  /** How many times an entry may expand (uncompressed over compressed size)... */
  maxExpansionRatio?: number;
  /** ...once it is larger than this; small entries may expand as they like. */
  expansionRatioFromBytes?: number;
}

export const defaultImportLimits: ImportLimits = {
  maxEntries: 100_000,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxFileBytes: 256 * 1024 * 1024,
  // Real legislative JSON, XML and CSV deflate 5–20 times; deflate's own ceiling is about 1,032.
  maxExpansionRatio: 100,
  expansionRatioFromBytes: 4 * 1024 * 1024,
};

export function isZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6))
  );
}

// Slicing-by-8: eight tables, so the loop takes eight bytes (two 32-bit words) per step instead
// of one byte (about three times faster; every entry of a dataset is checked). Table k gives the
// CRC of a byte followed by k zero bytes.
const CRC_TABLES = (() => {
  const tables = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    tables[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = tables[n] as number;
    for (let k = 1; k < 8; k++) {
      c = (tables[c & 0xff] as number) ^ (c >>> 8);
      tables[k * 256 + n] = c;
    }
  }
  return tables;
})();

/** Words are read in the platform's byte order; the word loop assumes little-endian. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export function crc32(bytes: Uint8Array): number {
  const t = CRC_TABLES;
  const length = bytes.length;
  let crc = -1;
  let index = 0;
  // Indexed loops without `?? 0`: an iterator or a fallback per byte costs more than the look-up.
  const byte = (at: number) => bytes[at] as number;
  if (LITTLE_ENDIAN && length >= 16) {
    // Bytes up to a 4-byte boundary, then whole pairs of words, then the rest.
    const head = (4 - (bytes.byteOffset & 3)) & 3;
    for (; index < head; index++) crc = (t[(crc ^ byte(index)) & 0xff] as number) ^ (crc >>> 8);
    const words = new Int32Array(
      bytes.buffer,
      bytes.byteOffset + index,
      ((length - index) >> 3) << 1,
    );
    const count = words.length;
    for (let word = 0; word < count; word += 2) {
      const low = crc ^ (words[word] as number);
      const high = words[word + 1] as number;
      crc =
        (t[1792 + (low & 0xff)] as number) ^
        (t[1536 + ((low >>> 8) & 0xff)] as number) ^
        (t[1280 + ((low >>> 16) & 0xff)] as number) ^
        (t[1024 + (low >>> 24)] as number) ^
        (t[768 + (high & 0xff)] as number) ^
        (t[512 + ((high >>> 8) & 0xff)] as number) ^
        (t[256 + ((high >>> 16) & 0xff)] as number) ^
        (t[high >>> 24] as number);
    }
    index += count * 4;
  }
  for (; index < length; index++) crc = (t[(crc ^ byte(index)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

interface DirectoryEntry {
  name: string;
  crc: number;
  uncompressedSize: number;
  compressedSize: number;
  /** 0 stored, 8 deflated; others are refused when the entry is read. */
  method: number;
  /** Where the entry's local header starts. */
  localOffset: number;
}

function u16(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}
function u32(bytes: Uint8Array, at: number): number {
  return (u16(bytes, at) | (u16(bytes, at + 2) << 16)) >>> 0;
}

/** The central directory: entry names, CRCs and declared sizes, without inflating anything. */
function readCentralDirectory(bytes: Uint8Array): DirectoryEntry[] {
  let end = bytes.length - 22;
  const earliest = Math.max(0, bytes.length - 22 - 0xffff);
  while (end >= earliest && u32(bytes, end) !== 0x06054b50) end--;
  if (end < earliest) throw new Error('no ZIP end-of-directory record (the file is cut short?)');
  let total = u16(bytes, end + 10);
  let offset = u32(bytes, end + 16);
  if (u32(bytes, end - 20) === 0x07064b50) {
    // ZIP64: the real count and offset live in the ZIP64 end record (low 32 bits suffice here).
    const zip64End = u32(bytes, end - 12);
    if (u32(bytes, zip64End) === 0x06064b50) {
      total = u32(bytes, zip64End + 32);
      offset = u32(bytes, zip64End + 48);
    }
  }
  const entries: DirectoryEntry[] = [];
  for (let index = 0; index < total; index++) {
    if (u32(bytes, offset) !== 0x02014b50) throw new Error('damaged ZIP central directory');
    const flags = u16(bytes, offset + 8);
    const nameLength = u16(bytes, offset + 28);
    const extraLength = u16(bytes, offset + 30);
    const commentLength = u16(bytes, offset + 32);
    const nameBytes = bytes.subarray(offset + 46, offset + 46 + nameLength);
    // Bit 11 marks UTF-8 names; fflate reads the others as Latin-1, and so must this, for the
    // names to match.
    const name = flags & 0x800 ? decodeUtf8(nameBytes) : String.fromCharCode(...nameBytes);
    // A ZIP64 size (0xffffffff here) is over every size limit, so it is never read.
    let uncompressedSize = u32(bytes, offset + 24);
    if (uncompressedSize === 0xffffffff) uncompressedSize = Number.MAX_SAFE_INTEGER;
    entries.push({
      name,
      crc: u32(bytes, offset + 16),
      uncompressedSize,
      compressedSize: u32(bytes, offset + 20),
      method: u16(bytes, offset + 10),
      localOffset: u32(bytes, offset + 42),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

function isDirectoryOrJunk(name: string): boolean {
  return (
    name.endsWith('/') ||
    name.startsWith('__MACOSX/') ||
    name.split('/').some((part) => part.startsWith('._'))
  );
}

export interface ExpandedFiles {
  files: ImportFile[];
  errors: ImportError[];
}

/** A file of a dataset, read when asked: a plain file as given, or an archive entry. */
export interface PendingFile {
  name: string;
  /**
   * The file, or why it cannot be read. An archive entry is inflated on each call (nothing is
   * kept), its CRC-32 checked, and a ZIP inside it refused.
   */
  read(): { ok: true; file: ImportFile } | { ok: false; error: ImportError };
}

export interface ArchivePlan {
  /** Every file to read, in order: plain files as given, each archive's entries in its order. */
  files: PendingFile[];
  /** Files and archives refused whole before anything is inflated. */
  errors: ImportError[];
}

/** The bytes of one entry, inflated into a buffer of its declared size (never larger). */
function inflateEntry(zip: Uint8Array, entry: DirectoryEntry): Uint8Array {
  const at = entry.localOffset;
  if (u32(zip, at) !== 0x04034b50) throw new Error('its local header is missing');
  const start = at + 30 + u16(zip, at + 26) + u16(zip, at + 28);
  const end = start + entry.compressedSize;
  if (end > zip.length) throw new Error('it runs past the end of the archive');
  const data = zip.subarray(start, end);
  if (entry.method === 0) return data.slice(0, entry.uncompressedSize);
  if (entry.method === 8) {
    const inflated = inflateWithin(data, entry.uncompressedSize);
    if (!inflated.ok) throw new Error(inflated.reason);
    return inflated.bytes;
  }
  throw new Error(`its compression method (${entry.method}) is not supported`);
}

function archiveEntry(archive: ImportFile, entry: DirectoryEntry): PendingFile {
  const name = `${archive.name}/${entry.name}`;
  const refuse = (reason: string) => ({
    ok: false as const,
    error: { file: name, record: null, reason },
  });
  return {
    name,
    read: () => {
      let bytes: Uint8Array;
      try {
        bytes = inflateEntry(archive.bytes, entry);
      } catch (error) {
        return refuse(
          `ZIP entry could not be read: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (crc32(bytes) !== entry.crc)
        return refuse('ZIP entry is damaged (its CRC-32 does not match)');
      if (isZip(bytes))
        return refuse('a ZIP inside a ZIP is not read; unzip the outer archive first');
      return { ok: true, file: { name, bytes } };
    },
  };
}

/**
 * Why an archive is refused whole, from its central directory, or null when it may be read: too
 * many entries, an entry or all of them (`declared` bytes, on top of the `totalBytes` of the files
 * before it) over the size limits, or an entry that would expand too many times.
 */
function archiveRefusal(
  directory: readonly DirectoryEntry[],
  wanted: readonly DirectoryEntry[],
  declared: number,
  totalBytes: number,
  limits: ImportLimits,
): string | null {
  if (directory.length > limits.maxEntries) {
    return `ZIP archive has ${directory.length} entries, over the limit of ${limits.maxEntries}; refused as a possible ZIP bomb`;
  }
  const tooBig = wanted.find((entry) => entry.uncompressedSize > limits.maxFileBytes);
  if (tooBig || totalBytes + declared > limits.maxTotalBytes) {
    return tooBig
      ? `ZIP entry ${tooBig.name} would expand to ${megabytes(tooBig.uncompressedSize)}, over the ${megabytes(limits.maxFileBytes)} limit; refused as a possible ZIP bomb`
      : `ZIP archive would expand to ${megabytes(declared)}, over the ${megabytes(limits.maxTotalBytes)} limit; refused as a possible ZIP bomb`;
  }
  const maxRatio = limits.maxExpansionRatio ?? defaultImportLimits.maxExpansionRatio ?? 100;
  const ratioFrom =
    limits.expansionRatioFromBytes ?? defaultImportLimits.expansionRatioFromBytes ?? 0;
  const bomb = wanted.find(
    (entry) =>
      entry.method !== 0 &&
      entry.uncompressedSize > ratioFrom &&
      entry.uncompressedSize > maxRatio * entry.compressedSize,
  );
  if (bomb) {
    const ratio = Math.round(bomb.uncompressedSize / Math.max(1, bomb.compressedSize));
    return `ZIP entry ${bomb.name} would expand ${ratio} times (to ${byteSizeLabel(bomb.uncompressedSize)} from ${byteSizeLabel(bomb.compressedSize)}), over the limit of ${maxRatio} times for entries over ${byteSizeLabel(ratioFrom)}; refused as a possible ZIP bomb`;
  }
  return null;
}

/**
 * What a set of files holds, without inflating anything: archives are opened by their central
 * directory and refused whole when they would break a size limit (importing part of a ZIP bomb
 * helps nobody); their entries are read one at a time later, so a large dataset never has to be
 * unzipped all at once.
 */
export function planArchives(
  files: readonly ImportFile[],
  limits: ImportLimits = defaultImportLimits,
): ArchivePlan {
  const out: PendingFile[] = [];
  const errors: ImportError[] = [];
  let totalBytes = 0;
  const refuse = (file: string, reason: string) => errors.push({ file, record: null, reason });
  for (const file of files) {
    if (file.bytes.length > limits.maxFileBytes) {
      refuse(
        file.name,
        `file is ${megabytes(file.bytes.length)}, over the ${megabytes(limits.maxFileBytes)} limit`,
      );
      continue;
    }
    if (!isZip(file.bytes)) {
      totalBytes += file.bytes.length;
      if (totalBytes > limits.maxTotalBytes) {
        refuse(
          file.name,
          `the files together are over the ${megabytes(limits.maxTotalBytes)} limit`,
        );
        return { files: out, errors };
      }
      out.push({ name: file.name, read: () => ({ ok: true, file }) });
      continue;
    }
    let directory: DirectoryEntry[];
    try {
      directory = readCentralDirectory(file.bytes);
    } catch (error) {
      refuse(
        file.name,
        `not a readable ZIP archive: ${error instanceof Error ? error.message : String(error)}`,
      );
      continue;
    }
    const wanted = directory.filter((entry) => !isDirectoryOrJunk(entry.name));
    const declared = wanted.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    const refusal = archiveRefusal(directory, wanted, declared, totalBytes, limits);
    if (refusal !== null) {
      refuse(file.name, refusal);
      continue;
    }
    // Entries are inflated into buffers of their declared size, so these bytes are the most
    // they can take.
    totalBytes += declared;
    for (const entry of wanted) out.push(archiveEntry(file, entry));
  }
  return { files: out, errors };
}

/**
 * Expands ZIP archives among the files into their entries (every one at once) and checks every
 * size limit: `planArchives`, then each file read in order.
 */
export function expandArchives(
  files: readonly ImportFile[],
  limits: ImportLimits = defaultImportLimits,
): ExpandedFiles {
  const plan = planArchives(files, limits);
  const out: ImportFile[] = [];
  const errors = [...plan.errors];
  for (const pending of plan.files) {
    const read = pending.read();
    if (read.ok) out.push(read.file);
    else errors.push(read.error);
  }
  return { files: out, errors };
}
