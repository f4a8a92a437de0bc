// A thread of `docket import` (src/parallel-import.ts): registers tsx's ESM loader, as docket.mjs
// does, and runs src/import-worker.ts.
import { register } from 'tsx/esm/api';

register();
await import('../src/import-worker.ts');
