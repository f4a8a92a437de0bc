import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetSpacesNotListed } from './forget-spaces.ts';
import { readSpaces } from './space-databases.ts';

// A workspace the account no longer belongs to leaves the device (issue 39): its database is
// deleted and the registry forgets it; the one the page works in is left first. The server's
// list alone deletes nothing: each missing workspace must be refused on its own.

/** A server that refuses the account in every workspace it lists as gone, and asked about. */
function refusing(...gone: string[]): {
  confirm: (id: string) => Promise<boolean>;
  asked: string[];
} {
  const asked: string[] = [];
  return {
    asked,
    confirm: (id) => {
      asked.push(id);
      return Promise.resolve(gone.includes(id));
    },
  };
}

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
    const server = refusing('ws-gone');
    expect(
      await forgetSpacesNotListed('user-1', new Set(['ws-kept', 'ws-open']), server.confirm),
    ).toEqual({ leave: false });
    expect(server.asked).toEqual(['ws-gone']);
    expect(await databases()).toEqual([KEPT, OPEN].sort());
    expect(readSpaces()[ACCOUNT_DB]).toEqual({ 'ws-kept': KEPT, 'ws-open': OPEN });
  });

  it('says to leave the open space when it is gone, and deletes it once left', async () => {
    const server = refusing('ws-gone', 'ws-open');
    expect(await forgetSpacesNotListed('user-1', new Set(['ws-kept']), server.confirm)).toEqual({
      leave: true,
    });
    // Still open here: only the other one went.
    expect(await databases()).toEqual([KEPT, OPEN].sort());
    localStorage.removeItem('docket.space');
    expect(await forgetSpacesNotListed('user-1', new Set(['ws-kept']), server.confirm)).toEqual({
      leave: false,
    });
    expect(await databases()).toEqual([KEPT]);
    expect(readSpaces()[ACCOUNT_DB]).toEqual({ 'ws-kept': KEPT });
  });

  it('touches nothing of an account this page does not work in', async () => {
    const server = refusing('ws-kept', 'ws-gone', 'ws-open');
    expect(await forgetSpacesNotListed('user-2', new Set(), server.confirm)).toEqual({
      leave: false,
    });
    expect(server.asked).toEqual([]);
    expect(await databases()).toEqual([GONE, KEPT, OPEN].sort());
  });

  it('keeps every space when the list leaves them out but the server, asked, does not refuse', async () => {
    // A list that wrongly came back empty: one workspace answers as a member would, the other
    // cannot be reached. Neither is a refusal, so nothing is deleted and the page stays.
    const answers: Record<string, () => Promise<boolean>> = {
      'ws-kept': () => Promise.resolve(false),
      'ws-gone': () => Promise.reject(new Error('The Docket server cannot be reached.')),
      'ws-open': () => Promise.resolve(false),
    };
    const confirm = (id: string) => answers[id]?.() ?? Promise.resolve(false);
    expect(await forgetSpacesNotListed('user-1', new Set(), confirm)).toEqual({ leave: false });
    expect(await databases()).toEqual([GONE, KEPT, OPEN].sort());
    expect(Object.keys(readSpaces()[ACCOUNT_DB] ?? {}).sort()).toEqual([
      'ws-gone',
      'ws-kept',
      'ws-open',
    ]);
  });
});
