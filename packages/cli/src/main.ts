import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type ImportError } from '@docket/core/importers';
import { printable } from '@docket/core/encoding';
import { USAGE, parseCliArgs } from './cli-args.ts';
import { importFilesInParallel, startImportWorkers } from './parallel-import.ts';
import { MissingInputError, readInputFiles } from './read-input-files.ts';

export interface CliIo {
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const processIo: CliIo = {
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

function describeError(error: ImportError): string {
  // Names and reasons can come from the files (a ZIP's entry names, a record's label): nothing in
  // them reaches the terminal as a control sequence.
  const record = error.record === null ? '' : `, ${printable(error.record, 200)}`;
  return `error: ${printable(error.file, 1_000)}${record}: ${printable(error.reason, 1_000)}\n`;
}

function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** Runs `docket <argv>` and resolves to the exit status. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const command = parseCliArgs(argv);
  if (command.kind === 'help') {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  if (command.kind === 'usage-error') {
    io.stderr(`docket: ${command.message}\n\n${USAGE}\n`);
    return 2;
  }

  // A folder may hold thousands of BILLSTATUS files, read on every core: the workers start
  // loading now, while this thread reads the files.
  const workers = command.inputs.some((input) => isFolder(resolve(io.cwd, input)))
    ? startImportWorkers()
    : undefined;
  let input;
  try {
    input = readInputFiles(command.inputs, io.cwd, { shared: workers !== undefined });
  } catch (error) {
    await Promise.all((workers ?? []).map(({ worker }) => worker.terminate()));
    if (error instanceof MissingInputError) {
      io.stderr(`docket: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }

  const { report: result, lines: billLines } = await importFilesInParallel(
    input.files,
    { jurisdiction: command.jurisdiction, session: command.session },
    { workers },
  );
  const errors = [...input.errors, ...result.errors];
  // With the bills on standard output, the summary goes with the errors to standard error.
  const report = command.out === '-' ? io.stderr : io.stdout;

  let written = 'nothing written';
  if (billLines.length > 0) {
    const lines = billLines.map((line) => `${line}\n`).join('');
    if (command.out === '-') {
      io.stdout(lines);
      written = 'to standard output';
    } else {
      const target = resolve(io.cwd, command.out);
      await writeFile(target, lines);
      written = `to ${command.out}`;
    }
  }

  for (const error of errors) io.stderr(describeError(error));
  for (const { file, reason } of result.notUsed) io.stderr(`not used: ${file}: ${reason}\n`);
  report(
    [
      `Format: ${result.format === 'mixed' ? `mixed (${result.formats.join(', ')})` : (result.format ?? 'none recognised')}`,
      `Files: ${input.files.length + input.errors.length}`,
      `Records read: ${result.recordsRead}`,
      `Bills written: ${billLines.length} (${written})`,
      `Errors: ${errors.length}`,
      ...(result.notUsed.length > 0 ? [`Files not used: ${result.notUsed.length}`] : []),
      '',
    ].join('\n'),
  );
  return billLines.length > 0 ? 0 : 1;
}
