import { pageLocalStore } from '../bills/bill-command-services.ts';

// The fragment keys of the links this device made, so "Copy link" still works after the screen
// was left. Kept under a `device:` setting (never synced, never sent): the server must not be
// able to get them, and another device of the user simply cannot copy the link again.

function settingKey(linkId: string): string {
  return `device:public-link-key:${linkId}`;
}

export async function saveLinkKey(linkId: string, fragmentKey: string): Promise<void> {
  const store = await pageLocalStore();
  await store.write(['settings'], (tx) =>
    tx.put('settings', { key: settingKey(linkId), value: fragmentKey }),
  );
}

export async function loadLinkKeys(linkIds: readonly string[]): Promise<Map<string, string>> {
  const store = await pageLocalStore();
  const rows = await store.read(['settings'], (tx) =>
    tx.getMany('settings', linkIds.map(settingKey)),
  );
  const keys = new Map<string, string>();
  rows.forEach((row, index) => {
    const id = linkIds[index];
    if (id !== undefined && typeof row?.value === 'string') keys.set(id, row.value);
  });
  return keys;
}

export async function forgetLinkKey(linkId: string): Promise<void> {
  const store = await pageLocalStore();
  await store.write(['settings'], (tx) => tx.delete('settings', settingKey(linkId)));
}
