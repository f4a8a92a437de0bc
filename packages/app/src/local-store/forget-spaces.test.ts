import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetSpacesNotListed } from './forget-spaces.ts';
import { readSpaces } from './space-databases.ts';

// A workspace the account no longer belongs to leaves the device (issue 39): its database is
// deleted and the registry forgets it; the one the page works in is left first.

const ACCOUNT_DB = `docket-${'a'.repeat(32)}`;
const KEPT = `${ACCOUNT_DB}.space-${'1'.repeat(32)}`;
const GONE = `${ACCOUNT_DB}.space-${'2'.repeat(32)}`;
const OPEN = `${ACCOUNT_DB}.space-${'3'.repeat(32)}`;

function makeDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore('tags');
    };
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => {
      reject(new Error(String(request.error)));
    };
  });
}

async function databases(): Promise<string[]> {
  return (await indexedDB.databases()).map((database) => database.name ?? '').sort();
}

describe('forgetting the spaces of workspaces the account left', () => {
  beforeEach(async () => {
    localStorage.clear();
    localStorage.setItem('docket.accounts', JSON.stringify({ 'user-1': ACCOUNT_DB }));
    localStorage.setItem('docket.database', ACCOUNT_DB);
    localStorage.setItem(
      'docket.spaces',
      JSON.stringify({ [ACCOUNT_DB]: { 'ws-kept': KEPT, 'ws-gone': GONE, 'ws-open': OPEN } }),
    );
    localStorage.setItem(
      'docket.space',
      JSON.stringify({ account: ACCOUNT_DB, workspaceId: 'ws-open', role: 'editor' }),
    );
    for (const name of [KEPT, GONE, OPEN]) await makeDatabase(name);
  });
  afterEach(async () => {
    for (const name of await databases()) indexedDB.deleteDatabase(name);
    localStorage.clear();
  });

  it('deletes a space no longer listed, keeps the listed ones and the open one', async () => {
    expect(await forgetSpacesNotListed('user-1', new Set(['ws-kept', 'ws-open']))).toEqual({
      leave: false,
    });
    expect(await databases()).toEqual([KEPT, OPEN].sort());
    expect(readSpaces()[ACCOUNT_DB]).toEqual({ 'ws-kept': KEPT, 'ws-open': OPEN });
  });

  it('says to leave the open space when it is gone, and deletes it once left', async () => {
    expect(await forgetSpacesNotListed('user-1', new Set(['ws-kept']))).toEqual({ leave: true });
    // Still open here: only the other one went.
    expect(await databases()).toEqual([KEPT, OPEN].sort());
    localStorage.removeItem('docket.space');
    expect(await forgetSpacesNotListed('user-1', new Set(['ws-kept']))).toEqual({ leave: false });
    expect(await databases()).toEqual([KEPT]);
    expect(readSpaces()[ACCOUNT_DB]).toEqual({ 'ws-kept': KEPT });
  });

  it('touches nothing of an account this page does not work in', async () => {
    expect(await forgetSpacesNotListed('user-2', new Set())).toEqual({ leave: false });
    expect(await databases()).toEqual([GONE, KEPT, OPEN].sort());
  });
});
