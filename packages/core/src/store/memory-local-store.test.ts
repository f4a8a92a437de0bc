import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeLocalStoreAcceptance } from './local-store-acceptance.ts';
import { createMemoryLocalStore } from './memory-local-store.ts';

describeLocalStoreAcceptance(
  'memory local store',
  () => Promise.resolve(createMemoryLocalStore()),
  { describe, it, expect, beforeEach, afterEach },
);
