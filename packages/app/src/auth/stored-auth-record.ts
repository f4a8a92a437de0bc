import type { KeyValueStore } from '../platform/platform.ts';

/** Spec §3: the stored auth record holds the e-mail only, under the key 'auth'. */
export const AUTH_RECORD_KEY = 'auth';

export interface StoredAuthRecord {
  readonly email: string;
}

/** Reads the record; anything unreadable counts as no record rather than breaking startup. */
export async function readStoredAuthRecord(store: KeyValueStore): Promise<StoredAuthRecord | null> {
  const raw = await store.get(AUTH_RECORD_KEY);
  if (raw === null) return null;
  try {
    // Checked by hand: it is read before the first paint, which zod would slow (see README).
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    const { email } = parsed as { email?: unknown };
    return typeof email === 'string' && email.length > 0 ? { email } : null;
  } catch {
    return null;
  }
}

export function writeStoredAuthRecord(store: KeyValueStore, record: StoredAuthRecord) {
  return store.set(AUTH_RECORD_KEY, JSON.stringify({ email: record.email }));
}

export function removeStoredAuthRecord(store: KeyValueStore) {
  return store.remove(AUTH_RECORD_KEY);
}
