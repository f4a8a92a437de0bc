import type { BillCommandContext } from '../commands/bill-command-context.ts';
import { BillCommandError, commandTime } from '../commands/bill-command-context.ts';
import {
  apiKeySchema,
  type ApiKey,
  type ApiKeySource,
  apiKeySources,
} from '../store/local-records.ts';
import type { LocalReadTransaction, LocalStore } from '../store/local-store.ts';
import { OutboxWriter, outboxTables } from '../merge/outbox-changes.ts';

// The user's API keys, one per source (LegiScan, Open States, congress.gov): rows of the synced `apiKeys`
// table, written through the outbox like positions, so they reach the user's other devices
// end-to-end encrypted and nothing else. A key is never logged, traced, put in an error message,
// exported with bills or put in a backup of bills: only the download that needs it reads it.

/** How people name each source whose API takes a key. */
export const apiKeySourceNames: Readonly<Record<ApiKeySource, string>> = {
  legiscan: 'LegiScan',
  openstates: 'Open States',
  congress: 'Congress.gov',
};

export function isApiKeySource(value: string): value is ApiKeySource {
  return (apiKeySources as readonly string[]).includes(value);
}

/** What is wrong with a typed key, or null when it can be saved (after trimming). */
export function apiKeyProblem(source: ApiKeySource, typed: string): string | null {
  const key = typed.trim();
  const name = apiKeySourceNames[source];
  if (key === '') return `Enter your ${name} API key.`;
  if (key.length > 200) return `That is too long for a ${name} API key: 200 characters at most.`;
  if (!/^[\x21-\x7e]+$/.test(key)) {
    return `${/^[AEIOU]/.test(name) ? 'An' : 'A'} ${name} API key is letters, digits and symbols, without spaces.`;
  }
  return null;
}

/** Saves (or replaces) the key for a source; it syncs to the user's other devices. */
export async function saveApiKey(
  context: BillCommandContext,
  source: ApiKeySource,
  typed: string,
): Promise<void> {
  const problem = apiKeyProblem(source, typed);
  if (problem !== null) throw new BillCommandError('invalid-input', problem);
  const { nowMs, at } = commandTime(context);
  const row = apiKeySchema.parse({ source, key: typed.trim(), updatedAt: at });
  await context.store.write(['apiKeys', ...outboxTables], async (tx) => {
    const existing = await tx.get('apiKeys', source);
    if (existing?.key === row.key) return;
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.put('apiKeys', {
      row,
      ...(existing === undefined ? {} : { changed: ['key', 'updatedAt'] }),
    });
    await outbox.close();
  });
}

/** Removes the key for a source, here and, through sync, on the user's other devices. */
export async function removeApiKey(
  context: BillCommandContext,
  source: ApiKeySource,
): Promise<void> {
  const { nowMs } = commandTime(context);
  await context.store.write(['apiKeys', ...outboxTables], async (tx) => {
    if ((await tx.get('apiKeys', source)) === undefined) return;
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.delete('apiKeys', source);
    await outbox.close();
  });
}

/** The key for a source inside a transaction over `apiKeys`, or null when there is none. */
export async function apiKeyIn(
  tx: LocalReadTransaction,
  source: ApiKeySource,
): Promise<string | null> {
  const row: ApiKey | undefined = await tx.get('apiKeys', source);
  return row?.key ?? null;
}

/** The key for a source, or null when the user has not entered one. */
export function readApiKey(store: LocalStore, source: ApiKeySource): Promise<string | null> {
  return store.read(['apiKeys'], (tx) => apiKeyIn(tx, source));
}

/** The last characters of a key, enough for the user to tell which key is saved. */
export function apiKeyHint(key: string): string {
  return key.length <= 8 ? '•'.repeat(key.length) : `••••${key.slice(-4)}`;
}
