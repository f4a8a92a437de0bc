import { parentPort } from 'node:worker_threads';
import { readSlicesTaken, type SliceRequest } from './parallel-import.ts';

// A worker of parallel-import.ts: sent every file once, it reads the slices it takes from the
// shared counter and answers each with what it read, then says it took the last. Started through
// bin/import-worker.mjs, which loads this file's bundle (or runs it through tsx).

parentPort?.on('message', (request: SliceRequest) => {
  readSlicesTaken(request, (answer) => parentPort?.postMessage(answer));
});
