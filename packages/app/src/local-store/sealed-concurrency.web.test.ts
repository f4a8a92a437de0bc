import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { buildBackupContents, planRestore } from '@docket/core/backups';
import { openVaultAtSignIn } from './device-vault.ts';
import { openIndexedDbLocalStore } from './indexeddb-local-store.ts';

Dexie.debug = false;

describe('sealed rows read by two transactions at once (Chromium)', () => {
  it('a restore is planned both ways at once on a vault opened from its files', async () => {
    const name = `docket-${'0'.repeat(20)}${String(Date.now()).slice(-12)}`;
    expect(await openVaultAtSignIn(name, 'user-1', 'pw')).toBe('created');
    const store = await openIndexedDbLocalStore({ name });
    const at = '2026-11-29T00:00:00.000Z';
    await store.write(['tags', 'positions'], async (tx) => {
      await tx.put('tags', {
        id: 't1',
        name: 'One',
        color: '#aabbcc',
        createdAt: at,
        updatedAt: at,
      });
      await tx.put('positions', {
        billId: 'b1',
        position: 'support',
        reason: 'Why',
        updatedAt: at,
      });
    });
    const contents = await buildBackupContents(store, at);
    const fresh = await openIndexedDbLocalStore({ name });
    const [replace, merge] = await Promise.all([
      planRestore(fresh, contents, 'replace'),
      planRestore(fresh, contents, 'merge'),
    ]);
    expect(replace.empty).toBe(true);
    expect(merge.empty).toBe(true);
    store.close();
    fresh.close();
  });
});
