import { parentPort } from 'node:worker_threads';
import type { ImportBillsOptions, ImportFile } from '@docket/core/importers';
import { readSliceLines, type SliceAnswer } from './parallel-import.ts';

// A worker of parallel-import.ts: reads each slice of files it is sent and answers with what it
// read. Started through bin/import-worker.mjs, which registers tsx as bin/docket.mjs does.

parentPort?.on(
  'message',
  (request: {
    index: number;
    files: ImportFile[];
    options: Pick<ImportBillsOptions, 'jurisdiction' | 'session'>;
  }) => {
    const answer: SliceAnswer = {
      index: request.index,
      slice: readSliceLines(request.files, request.options),
    };
    parentPort?.postMessage(answer);
  },
);
