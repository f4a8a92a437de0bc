import type { LocalStore } from './local-store.ts';
import { localStoreDataCases } from './local-store-acceptance-data-cases.ts';
import { localStoreTransactionCases } from './local-store-acceptance-transaction-cases.ts';

// The one suite every LocalStore implementation must pass: the memory store (core, under Node),
// the IndexedDB store under fake-indexeddb (app, jsdom) and the same IndexedDB store in real
// Chromium. What it pins down is what callers rely on and IndexedDB really does: rows are copies,
// keys sort by UTF-16 code unit, a throwing body writes nothing, writers take turns, and a
// transaction dies when its body awaits anything but the transaction.
// As Replicache's store tests and automerge-repo's storage adapter suite do, the suite is a table
// of named cases (`localStoreCases`), each a small function given a fresh store, and the runner
// (`describeLocalStoreAcceptance`) makes one test of each. The test functions are passed in, so
// no file of the suite imports a test runner, and it runs wherever a store does.

/** The few matchers the suite uses; Vitest's `expect` fits. */
export interface AcceptanceAssertion {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toBeUndefined(): void;
  toBeInstanceOf(expected: abstract new (...args: never[]) => unknown): void;
  toHaveLength(length: number): void;
  readonly not: AcceptanceAssertion;
  readonly rejects: {
    toBe(expected: unknown): Promise<void>;
    toThrow(expected?: string | RegExp): Promise<void>;
  };
}

export type AcceptanceExpect = (actual: unknown) => AcceptanceAssertion;

export interface AcceptanceTestApi {
  describe: (name: string, body: () => void) => void;
  it: (name: string, body: () => Promise<void> | void, timeout?: number) => void;
  expect: AcceptanceExpect;
  beforeEach: (body: () => Promise<void>) => void;
  afterEach: (body: () => Promise<void> | void) => void;
}

/** One case of the suite: its test's name, and its body, given a fresh, empty store. */
export interface LocalStoreCase {
  readonly name: string;
  readonly run: (context: {
    readonly store: LocalStore;
    readonly expect: AcceptanceExpect;
  }) => Promise<void> | void;
  /** In milliseconds, for a case that needs longer than the runner's default. */
  readonly timeout?: number;
}

/** Every case, in the order the suite runs them: what a store keeps, then its transactions. */
export const localStoreCases: readonly LocalStoreCase[] = [
  ...localStoreDataCases,
  ...localStoreTransactionCases,
];

/** Runs every case against stores from `makeStore`, one new store per case, closed after it. */
export function describeLocalStoreAcceptance(
  name: string,
  makeStore: () => Promise<LocalStore>,
  { describe, it, expect, beforeEach, afterEach }: AcceptanceTestApi,
): void {
  describe(name, () => {
    let store: LocalStore;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(() => {
      store.close();
    });
    for (const { name: caseName, run, timeout } of localStoreCases) {
      it(caseName, () => run({ store, expect }), timeout);
    }
  });
}
