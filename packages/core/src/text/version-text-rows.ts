import type { LocalReadTransaction, LocalStore } from '../store/local-store.ts';
import { type VersionText, versionTextSchema } from '../store/local-records.ts';
import type { StructuredText } from './html-to-text.ts';
import type { VersionTextFormat } from './version-text.ts';

// The `versionTexts` rows: a bill's text versions as this device fetched them. Derived like
// bills (never synced, never in the outbox): "Get text" writes one, a removed bill's go with it.

export const versionTextId = (billId: string, index: number): string => `${billId}|${index}`;

/** Keeps a fetched version's text, replacing the copy fetched before. */
export async function saveVersionText(
  store: LocalStore,
  fetched: {
    billId: string;
    index: number;
    url: string;
    format: VersionTextFormat;
    text: StructuredText;
    fetchedAt: string;
  },
): Promise<VersionText> {
  const row = versionTextSchema.parse({
    id: versionTextId(fetched.billId, fetched.index),
    billId: fetched.billId,
    index: fetched.index,
    url: fetched.url,
    format: fetched.format,
    fetchedAt: fetched.fetchedAt,
    text: fetched.text.text,
    headings: fetched.text.headings,
  });
  await store.write(['versionTexts'], (tx) => tx.put('versionTexts', row));
  return row;
}

/** The fetched versions of a bill, in the order of its `texts`. */
export async function readVersionTexts(
  tx: LocalReadTransaction,
  billId: string,
): Promise<VersionText[]> {
  const rows = await tx.where('versionTexts', 'billId', billId);
  return rows.sort((a, b) => a.index - b.index);
}
