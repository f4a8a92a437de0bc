import { openIndexedDbLocalStore } from './indexeddb-local-store.ts';

// For the web tests of the device databases (account-databases, space-databases): a tag written
// into a named database, and the names of the tags one holds, each through a connection of its own.

export async function putTag(name: string, tagName: string): Promise<void> {
  const store = await openIndexedDbLocalStore({ name });
  try {
    await store.write(['tags'], (tx) =>
      tx.put('tags', {
        id: `t-${tagName}`,
        name: tagName,
        color: '#3366cc',
        createdAt: '2026-11-29T00:00:00.000Z',
        updatedAt: '2026-11-29T00:00:00.000Z',
      }),
    );
  } finally {
    store.close();
  }
}

export async function tagNames(name: string): Promise<string[]> {
  const store = await openIndexedDbLocalStore({ name });
  try {
    return (await store.read(['tags'], (tx) => tx.all('tags'))).map((tag) => tag.name);
  } finally {
    store.close();
  }
}
