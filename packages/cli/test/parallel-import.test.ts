import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importBills, type ImportFile } from '@docket/core/importers';
import { importFilesInParallel, startImportWorkers } from '../src/parallel-import.ts';
import { readInputFiles } from '../src/read-input-files.ts';

// Reading BILLSTATUS on several threads must give exactly what one importBills over the same
// files gives: the same bills, merged and sorted alike, the same errors in the same order.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = resolve(repoRoot, '../shared/fixtures');
const realFolders = ['billstatus-xml-116', 'billstatus-samples'].map((name) =>
  join(fixtures, name),
);
const samples = join(repoRoot, 'packages/core/test-samples/billstatus');

/** What one importBills over the files gives, as the parallel import gives it. */
function oneThread(files: readonly ImportFile[]) {
  const { bills, ...report } = importBills(copies(files));
  return { report, lines: bills.map((bill) => JSON.stringify(bill)) };
}

function copies(files: readonly ImportFile[]): ImportFile[] {
  return files.map((file) => ({ name: file.name, bytes: file.bytes.slice() }));
}

/** Real files (when ../shared is there) and the hand-made ones with a bad file among them, the
 *  first file again at the end so one bill is read in two slices. */
function billStatusFiles(): ImportFile[] {
  const folders = [...realFolders.filter((folder) => existsSync(folder)), samples];
  const { files } = readInputFiles(folders, repoRoot);
  const first = files[0];
  if (first === undefined) throw new Error('no BILLSTATUS files to read');
  return [...files, { name: `${first.name} (again)`, bytes: first.bytes.slice() }];
}

describe('docket import on several threads', () => {
  it('gives what one thread gives when workers read every slice', async () => {
    const files = billStatusFiles();
    const expected = oneThread(files);
    expect(expected.report.errors.length).toBeGreaterThan(0);

    const { report, lines, workerSlices } = await importFilesInParallel(
      copies(files),
      {},
      { threads: 3, minFiles: 1, sliceFiles: 7, readHere: false },
    );

    expect(workerSlices).toBe(Math.ceil(files.length / 7));
    expect({ report, lines }).toEqual(expected);
  });

  it('gives what one thread gives when this thread and a worker share the slices', async () => {
    const files = billStatusFiles();
    const expected = oneThread(files);

    const { report, lines } = await importFilesInParallel(
      copies(files),
      {},
      { threads: 2, minFiles: 1, sliceFiles: 5 },
    );

    expect({ report, lines }).toEqual(expected);
  });

  it('reads files that need each other in one piece', async () => {
    const { files } = readInputFiles(
      [join(repoRoot, 'packages/core/test-samples/legiscan')],
      repoRoot,
    );

    const { report, lines, workerSlices } = await importFilesInParallel(
      copies(files),
      {},
      { threads: 2, minFiles: 1, sliceFiles: 1 },
    );

    expect(workerSlices).toBe(0);
    expect({ report, lines }).toEqual(oneThread(files));
  });

  it('uses workers started before the files were read', async () => {
    const workers = startImportWorkers(3);
    const files = billStatusFiles();
    const expected = oneThread(files);

    const { report, lines, workerSlices } = await importFilesInParallel(
      copies(files),
      {},
      { threads: 3, minFiles: 1, sliceFiles: 7, readHere: false, workers },
    );

    expect(workerSlices).toBe(Math.ceil(files.length / 7));
    expect({ report, lines }).toEqual(expected);
    // Every one of them is ended, none left running.
    await Promise.all(workers.map(({ gone }) => gone));
  });

  it('ends the workers started before the files were read when the files do not need them', async () => {
    const workers = startImportWorkers(2);
    const { files } = readInputFiles(
      [join(repoRoot, 'packages/core/test-samples/legiscan')],
      repoRoot,
    );

    const { workerSlices } = await importFilesInParallel(
      copies(files),
      {},
      { threads: 2, minFiles: 1, workers },
    );

    expect(workerSlices).toBe(0);
    await Promise.all(workers.map(({ gone }) => gone));
  });
});
