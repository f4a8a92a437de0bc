import './node-typed-arrays.ts';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeLocalStoreAcceptance } from '@docket/core/store';
import { openIndexedDbLocalStore } from './indexeddb-local-store.ts';

// The acceptance suite on fake-indexeddb under jsdom. Each test gets a fresh IDBFactory and its
// own database name, so no test sees another's rows.
let opened = 0;
describeLocalStoreAcceptance(
  'IndexedDB local store (fake-indexeddb)',
  () => {
    opened += 1;
    return openIndexedDbLocalStore({
      name: `docket-test-${opened}`,
      indexedDB: new IDBFactory(),
      IDBKeyRange,
    });
  },
  { describe, it, expect, beforeEach, afterEach },
);
