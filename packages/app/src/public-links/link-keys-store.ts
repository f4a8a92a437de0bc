import {
  type LinkChoices,
  linkChoicesSchema,
  type LinkCounts,
  linkCountsSchema,
} from '@docket/core/backups';
import type { ApiClient } from '../api/api-client.ts';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import { listLinks } from './public-links-api.ts';

// The fragment keys of the links this device made, so "Copy link" still works after the screen
// was left, and what each link holds (the sharer's choices and the counts of what was sealed),
// so the list of links can say it: the server keeps only the ciphertext, which it cannot read.
// Kept under a `device:` setting (never synced, never sent): the server must not be able to get
// them, and another device of the user simply cannot copy the link again. The key is kept only
// when the sharer chose "Keep this link on this device" (issue 38), and then sealed with the rest
// of the account's work (core's sealed-rows.ts); otherwise only what the link holds is kept, and
// the link can be copied only on the screen that made it.
//
// The setting's value: { key, choices, counts }, key null when it was not kept or once the link
// is revoked (it opens nothing any more, and what it held is still worth saying), then with
// `revoked: true`; links made before choices were kept have the key alone, as a string.

function settingKey(linkId: string): string {
  return `device:public-link-key:${linkId}`;
}

/** What this device knows of a link it made. */
export interface KeptLink {
  /** The fragment key (`#k=…`); null once the link is revoked. */
  readonly key: string | null;
  /** What the link holds; null for links made before it was kept. */
  readonly holds: { readonly choices: LinkChoices; readonly counts: LinkCounts } | null;
  /** Revoked from this device. A link revoked before this was kept says so only on the server. */
  readonly revoked: boolean;
}

function keptLinkOf(value: unknown): KeptLink | null {
  if (typeof value === 'string') return { key: value, holds: null, revoked: false };
  if (typeof value !== 'object' || value === null) return null;
  const { key, choices, counts, revoked } = value as Record<string, unknown>;
  if (typeof key !== 'string' && key !== null) return null;
  const parsedChoices = linkChoicesSchema.safeParse(choices);
  const parsedCounts = linkCountsSchema.safeParse(counts);
  return {
    key,
    holds:
      parsedChoices.success && parsedCounts.success
        ? { choices: parsedChoices.data, counts: parsedCounts.data }
        : null,
    revoked: revoked === true,
  };
}

/** Keeps what a new link holds, and its key when the sharer chose to keep it (else null). */
export async function saveLinkKey(
  linkId: string,
  fragmentKey: string | null,
  holds: { readonly choices: LinkChoices; readonly counts: LinkCounts },
): Promise<void> {
  const store = await pageLocalStore();
  const value = { key: fragmentKey, choices: holds.choices, counts: holds.counts };
  await store.write(['settings'], (tx) => tx.put('settings', { key: settingKey(linkId), value }));
}

/** What this device kept of each of these links: those it made. */
export async function loadLinkKeys(linkIds: readonly string[]): Promise<Map<string, KeptLink>> {
  const store = await pageLocalStore();
  const rows = await store.read(['settings'], (tx) =>
    tx.getMany('settings', linkIds.map(settingKey)),
  );
  const kept = new Map<string, KeptLink>();
  rows.forEach((row, index) => {
    const id = linkIds[index];
    const link = keptLinkOf(row?.value);
    if (id !== undefined && link !== null) kept.set(id, link);
  });
  return kept;
}

/** Drops a revoked link's key, keeping what it held, and notes that it is revoked. */
export async function forgetLinkKey(linkId: string): Promise<void> {
  const store = await pageLocalStore();
  await store.write(['settings'], async (tx) => {
    const kept = keptLinkOf((await tx.get('settings', settingKey(linkId)))?.value);
    if (kept?.holds == null) {
      await tx.delete('settings', settingKey(linkId));
      return;
    }
    const { choices, counts } = kept.holds;
    const value = { key: null, choices, counts, revoked: true };
    await tx.put('settings', { key: settingKey(linkId), value });
  });
}

/** A link this device made that still opens, and the name of the backup it publishes if known. */
export interface LiveLink {
  readonly id: string;
  /** The name of the backup (or list) it publishes; null when the server could not say. */
  readonly name: string | null;
}

/**
 * The links this device made that are not revoked (nor expired, when the server says so): they
 * stay live after the device forgets them, kept key or not. With `api`, the server's list of
 * each backup's links names them by their backup and drops those revoked or expired elsewhere;
 * without it, or offline, each link made here and not revoked here counts, unnamed.
 */
export async function liveLinks(api: ApiClient | null, now = Date.now()): Promise<LiveLink[]> {
  const store = await pageLocalStore();
  const [rows, backups] = await store.read(['settings', 'backups'], (tx) =>
    Promise.all([tx.all('settings'), tx.all('backups')]),
  );
  const prefix = settingKey('');
  const madeHere = rows
    .filter((row) => row.key.startsWith(prefix) && keptLinkOf(row.value)?.revoked === false)
    .map((row) => row.key.slice(prefix.length));
  if (madeHere.length === 0) return [];
  // What the server knows of each: live with its backup's name, or dead (null).
  const known = new Map<string, LiveLink | null>();
  if (api !== null) {
    const lists = await Promise.all(
      backups.map((backup) =>
        listLinks(api, backup.id).then(
          (links) => ({ name: backup.name, links }),
          () => null,
        ),
      ),
    );
    for (const list of lists) {
      for (const link of list?.links ?? []) {
        const expired = link.expiresAt !== null && Date.parse(link.expiresAt) <= now;
        const dead = link.revokedAt !== null || expired;
        known.set(link.id, dead ? null : { id: link.id, name: list?.name ?? null });
      }
    }
  }
  return madeHere.flatMap((id) => {
    const link = known.get(id);
    if (link === undefined) return [{ id, name: null }];
    return link === null ? [] : [link];
  });
}
