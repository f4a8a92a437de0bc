import { describe, expect, it } from 'vitest';
import {
  deleteFormDraft,
  FORM_DRAFT_PREFIX,
  formDraftKey,
  readFormDraft,
  saveFormDraft,
} from './form-drafts.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';

const now = new Date('2026-03-01T12:00:00.000Z');
const key = formDraftKey('annotation-note', 'us/118/hr-1');

describe('form drafts', () => {
  it('keeps a draft on the device and gives it back to the account that typed it', async () => {
    const store = createMemoryLocalStore();
    expect(await readFormDraft(store, key, 'ada@example.org')).toBeNull();
    await saveFormDraft(store, key, {
      fields: { note: 'Ask about weekends', color: 'green' },
      owner: 'ada@example.org',
      now,
    });
    expect(await readFormDraft(store, key, 'ada@example.org')).toEqual({
      fields: { note: 'Ask about weekends', color: 'green' },
      owner: 'ada@example.org',
      savedAt: '2026-03-01T12:00:00.000Z',
    });
    // Another person on a shared device is not offered it.
    expect(await readFormDraft(store, key, 'bob@example.org')).toBeNull();
    expect(await readFormDraft(store, key, null)).toBeNull();
  });

  it('is a device setting that writes no outbox entry, and is gone once deleted', async () => {
    const store = createMemoryLocalStore();
    await saveFormDraft(store, key, { fields: { note: 'x' }, owner: null, now });
    const rows = await store.read(['settings', 'outbox'], async (tx) => ({
      settings: await tx.keys('settings'),
      outbox: await tx.count('outbox'),
    }));
    expect(rows.settings).toEqual([key]);
    expect(key.startsWith('device:')).toBe(true);
    expect(rows.outbox).toBe(0);
    await deleteFormDraft(store, key);
    expect(await readFormDraft(store, key, null)).toBeNull();
  });

  it('keeps one draft per form and scope, with keys that fit a settings row', () => {
    expect(formDraftKey('dataset', 'new')).toBe(`${FORM_DRAFT_PREFIX}dataset:new`);
    expect(formDraftKey('dataset', 'a')).not.toBe(formDraftKey('backup', 'a'));
    const long = 'x'.repeat(200);
    const longKey = formDraftKey('annotation-note', long);
    expect(longKey.length).toBeLessThanOrEqual(200);
    expect(longKey).not.toBe(formDraftKey('annotation-note', `${long.slice(1)}y`));
    expect(() => formDraftKey('Not a name', 'new')).toThrow();
  });

  it('refuses what is not a draft and reads a damaged row as none', async () => {
    const store = createMemoryLocalStore();
    await expect(
      saveFormDraft(store, key, { fields: { note: 'x'.repeat(110_001) }, owner: null, now }),
    ).rejects.toThrow();
    await expect(
      saveFormDraft(store, 'device:deck-filter', { fields: {}, owner: null, now }),
    ).rejects.toThrow('Not a draft key');
    await store.write(['settings'], (tx) => tx.put('settings', { key, value: { fields: 3 } }));
    expect(await readFormDraft(store, key, null)).toBeNull();
  });
});
