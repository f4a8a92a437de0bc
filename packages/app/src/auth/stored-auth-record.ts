import { z } from 'zod';
import type { KeyValueStore } from '../platform/platform.ts';

/** Spec §3: the stored auth record holds the e-mail only, under the key 'auth'. */
export const AUTH_RECORD_KEY = 'auth';

const storedAuthRecordSchema = z.object({ email: z.string().min(1) });
export type StoredAuthRecord = z.infer<typeof storedAuthRecordSchema>;

/** Reads the record; anything unreadable counts as no record rather than breaking startup. */
export async function readStoredAuthRecord(store: KeyValueStore): Promise<StoredAuthRecord | null> {
  const raw = await store.get(AUTH_RECORD_KEY);
  if (raw === null) return null;
  try {
    const parsed = storedAuthRecordSchema.safeParse(JSON.parse(raw));
    return parsed.success ? { email: parsed.data.email } : null;
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
