import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { ImportError, ImportFile } from '@docket/core/importers';
import { defaultImportLimits } from '@docket/core/encoding';

// Files and folders from the command line, read into memory for importBills. Folders are
// walked recursively in name order (so output and messages are the same on every run); symbolic
// links inside them are not followed, so a link loop cannot trap the walk. Files are named by
// their path relative to the working directory, which is what messages should show.

export interface InputFiles {
  files: ImportFile[];
  errors: ImportError[];
}

export class MissingInputError extends Error {}

async function walk(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const paths: string[] = [];
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) paths.push(...(await walk(path)));
    else if (entry.isFile()) paths.push(path);
  }
  return paths;
}

export async function readInputFiles(inputs: readonly string[], cwd: string): Promise<InputFiles> {
  const paths: string[] = [];
  for (const input of inputs) {
    const info = await stat(input).catch(() => null);
    if (info === null) throw new MissingInputError(`no such file or folder: ${input}`);
    if (info.isDirectory()) paths.push(...(await walk(input)));
    else paths.push(input);
  }
  // Read several at a time, kept in the order of `paths`: one at a time, each file's turn through
  // the thread pool left the process waiting for more than half of a BILLSTATUS import.
  const read = new Array<ImportFile | ImportError>(paths.length);
  let next = 0;
  const reader = async () => {
    while (next < paths.length) {
      const index = next++;
      const path = paths[index] ?? '';
      read[index] = await readOne(path, relative(cwd, path) || path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, paths.length) }, reader));
  const files: ImportFile[] = [];
  const errors: ImportError[] = [];
  for (const entry of read) {
    if ('bytes' in entry) files.push(entry);
    else errors.push(entry);
  }
  return { files, errors };
}

async function readOne(path: string, name: string): Promise<ImportFile | ImportError> {
  const { size } = await stat(path);
  // Checked before reading, so a huge file is refused without being loaded.
  if (size > defaultImportLimits.maxFileBytes) {
    return {
      file: name,
      record: null,
      reason: `file is ${Math.round(size / 1048576)} MB, over the ${Math.round(defaultImportLimits.maxFileBytes / 1048576)} MB limit`,
    };
  }
  return { name, bytes: new Uint8Array(await readFile(path)) };
}
