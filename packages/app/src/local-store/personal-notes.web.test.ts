import Dexie from 'dexie';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  activeDatabaseName,
  enterAccountDatabase,
  removeEveryDatabase,
} from './account-databases.ts';
import { holdPasswordForDevice } from '../auth/held-password.ts';
import { enterSpace } from './enter-space.ts';
import { openIndexedDbLocalStore } from './indexeddb-local-store.ts';
import { readPersonalAnnotations } from './personal-notes.ts';

// A person's own notes on a bill, read from a team workspace's space (issue 39), on Chromium's
// IndexedDB and OPFS: the personal database is opened beside the workspace's, its sealed rows
// opened with the same account's vault.

Dexie.debug = false;

async function annotate(database: string, id: string, billId: string, note: string) {
  const store = await openIndexedDbLocalStore({ name: database });
  const at = `2026-12-0${id.length}T00:00:00.000Z`;
  try {
    await store.write(['annotations'], (tx) =>
      tx.put('annotations', {
        id,
        billId,
        quote: { exact: 'affordable housing', prefix: '', suffix: '' },
        position: { start: 0, end: 18 },
        target: 'title',
        color: '#ffd54f',
        note,
        createdAt: at,
        updatedAt: at,
      }),
    );
  } finally {
    store.close();
  }
}

describe('personal notes seen from a workspace', () => {
  beforeEach(async () => {
    await removeEveryDatabase();
    localStorage.clear();
  });

  it('are the personal space’s notes on the bill, and none in the personal space itself', async () => {
    holdPasswordForDevice('correct horse battery staple 7');
    await enterAccountDatabase('user-x');
    const personal = activeDatabaseName();
    await annotate(personal, 'a1', 'us/119/hr-1', 'Ask about the rent cap');
    await annotate(personal, 'a22', 'us/119/hr-1', 'Second thought');
    await annotate(personal, 'a3', 'us/119/hr-2', 'Another bill');
    expect(await readPersonalAnnotations('us/119/hr-1')).toBeNull();

    await enterSpace('user-x', 'ws-health');
    const team = activeDatabaseName();
    await annotate(team, 'team-1', 'us/119/hr-1', 'The team’s note');
    const mine = await readPersonalAnnotations('us/119/hr-1');
    expect(mine?.map((annotation) => annotation.note)).toEqual([
      'Ask about the rent cap',
      'Second thought',
    ]);
    expect(await readPersonalAnnotations('us/119/hr-9')).toEqual([]);
  });
});
