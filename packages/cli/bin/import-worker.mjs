// A thread of `docket import` (src/parallel-import.ts): runs src/import-worker.ts, bundled or
// through tsx, as bin/docket.mjs runs src/main.ts (load-entry.mjs).
import { loadEntry } from './load-entry.mjs';

await loadEntry('import-worker');
