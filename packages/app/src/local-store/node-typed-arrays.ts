// For tests under Vitest's jsdom environment, imported before anything else. Vitest installs
// jsdom's ArrayBuffer and typed-array constructors as globals, while structuredClone (and so
// fake-indexeddb, TextEncoder and crypto) stays Node's: a Uint8Array read back from the store
// then fails `instanceof Uint8Array` and zod's `z.instanceof(Uint8Array)`, which no browser
// would do. A browser has one realm, so give the tests one too: Node's constructors, taken from
// what structuredClone makes.

const samples = structuredClone({
  ArrayBuffer: new ArrayBuffer(0),
  Uint8Array: new Uint8Array(0),
  Uint8ClampedArray: new Uint8ClampedArray(0),
  Uint16Array: new Uint16Array(0),
  Uint32Array: new Uint32Array(0),
  Int8Array: new Int8Array(0),
  Int16Array: new Int16Array(0),
  Int32Array: new Int32Array(0),
  Float32Array: new Float32Array(0),
  Float64Array: new Float64Array(0),
});

const globals = globalThis as unknown as Record<string, unknown>;
for (const [name, sample] of Object.entries(samples)) {
  globals[name] = (Object.getPrototypeOf(sample) as { constructor: unknown }).constructor;
}
