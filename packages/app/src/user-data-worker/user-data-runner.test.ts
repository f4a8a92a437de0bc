import { createMemoryLocalStore } from '@docket/core/store';
import { storedBill, testContext } from '@docket/core/test-support/bill-command-harness';
import { trackBill } from '@docket/core/commands';
import { describe, expect, it } from 'vitest';
import { createUserDataRunner } from './user-data-runner.ts';

// The worker's API on a memory store: exports are built and traced, imports are previewed
// without writing, applied, and refused with a message (also traced).

async function traceOf(store: ReturnType<typeof createMemoryLocalStore>) {
  return (await store.read(['trace'], (tx) => tx.all('trace'))).map((row) => ({
    kind: row.kind,
    details: row.details,
  }));
}

describe('the user-data runner', () => {
  it('exports, previews, imports and refuses, tracing each', async () => {
    const source = createMemoryLocalStore();
    await source.write(['bills'], (tx) => tx.put('bills', storedBill(1)));
    const sourceContext = testContext(source);
    await trackBill(sourceContext, 'us/119/hr-1');
    const file = await createUserDataRunner(() => Promise.resolve(sourceContext)).exportFile(
      { kind: 'tracked' },
      'json',
    );
    expect(file.count).toBe(1);
    expect((await traceOf(source))[0]).toMatchObject({
      kind: 'export',
      details: { format: 'json', count: 1 },
    });

    const target = createMemoryLocalStore();
    const runner = createUserDataRunner(() => Promise.resolve(testContext(target, 'device-b')));
    const picked = { name: file.name, bytes: new TextEncoder().encode(file.text) };
    const preview = await runner.previewImport(picked);
    expect(preview.ok && preview.plan.counts.decisions.added).toBe(1);
    expect(await target.read(['decisions'], (tx) => tx.count('decisions'))).toBe(0);
    const done = await runner.applyImport(picked);
    expect(done.ok).toBe(true);
    expect(await target.read(['decisions'], (tx) => tx.count('decisions'))).toBe(1);

    const refused = await runner.previewImport({ name: 'bad.json', bytes: new Uint8Array([123]) });
    expect(refused).toEqual({
      ok: false,
      message: expect.stringMatching(/^The file is not valid JSON/) as unknown,
    });
    expect((await traceOf(target)).map((entry) => entry.details.outcome ?? 'imported')).toEqual([
      'imported',
      'refused',
    ]);
  });
});
