// A file as a user gives it to Docket, and why a file or a record of it was not read. Here,
// beneath everything, because the ZIP reader (zip-archive.ts) takes and reports files as much as
// the importers do (importers/bill-import-record.ts gives both to every importer).

/** One input file: its name (a path inside a folder or ZIP, used in messages and as a hint) and
 *  its bytes. */
export interface ImportFile {
  name: string;
  bytes: Uint8Array;
}

/** Why a record (or a whole file, when record is null) was not imported. */
export interface ImportError {
  /** The file, as "archive.zip/path/inside" for ZIP entries. */
  file: string;
  /** The record's identifier or position when known ("S.J.Res. 1", "row 7"). */
  record: string | null;
  reason: string;
}
