import {
  openCloudKeysWithBytes,
  type CloudKeyMaterial,
  type OpaqueCryptoKey,
} from '@docket/core/crypto';
import { liveAccountLocalStore } from '../local-store/live-database.ts';
import { browserCrypto } from '../crypto/browser-crypto.ts';

// This device's cloud keys, per user, in the settings table of the account's own database (a
// team workspace's space reads them there too) under a `device:` key (never synced), so the device syncs after a restart without asking for the password. What is stored
// is the key-encryption key's 32 bytes and the material, never a CryptoKey: Chromium writes a
// CryptoKey's raw bytes into IndexedDB's files whatever its extractability, beside the sealed
// part where the account's lock (issue 38) cannot reach them. Bytes are data, so the settings
// row seals them with the rest while the account is locked. Opened, they become non-extractable
// handles (the data key unwrapped from the material), kept in memory only.

export interface DeviceCloudKeys {
  readonly keyEpoch: number;
  readonly dataKey: OpaqueCryptoKey;
  readonly keyEncryptionKey: OpaqueCryptoKey;
  readonly material: CloudKeyMaterial;
}

/** The settings row's value: the key-encryption key's bytes and what it opens. */
export interface StoredCloudKeys {
  readonly keyEpoch: number;
  readonly keyEncryptionKeyBytes: Uint8Array;
  readonly material: CloudKeyMaterial;
}

/** The setting a user's keys are kept under on this device. */
export function cloudKeysSettingKey(userId: string): string {
  return `device:cloud-keys:${userId}`;
}

/** Keys stored before they were kept as bytes: handles, usable as they are. */
function isLegacyDeviceCloudKeys(record: Record<string, unknown>): boolean {
  return (
    typeof record.dataKey === 'object' &&
    record.dataKey !== null &&
    typeof record.keyEncryptionKey === 'object' &&
    record.keyEncryptionKey !== null
  );
}

export function isStoredCloudKeys(value: unknown): value is StoredCloudKeys | DeviceCloudKeys {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.keyEpoch === 'number' &&
    typeof record.material === 'object' &&
    record.material !== null &&
    (record.keyEncryptionKeyBytes instanceof Uint8Array || isLegacyDeviceCloudKeys(record))
  );
}

// One opening per stored value: the live settings row hands the same object to every reader.
const opened = new WeakMap<object, Promise<DeviceCloudKeys>>();

/** The stored value opened into handles; a value that does not open is no keys at all. */
export function openStoredCloudKeys(value: unknown): Promise<DeviceCloudKeys | null> {
  if (!isStoredCloudKeys(value)) return Promise.resolve(null);
  if (!('keyEncryptionKeyBytes' in value)) return Promise.resolve(value);
  let opening = opened.get(value);
  if (opening === undefined) {
    const { keyEpoch, material } = value;
    opening = openCloudKeysWithBytes(
      browserCrypto,
      material,
      new Uint8Array(value.keyEncryptionKeyBytes),
    ).then((keys) => ({ keyEpoch, material, ...keys }));
    opened.set(value, opening);
  }
  return opening.catch((error: unknown) => {
    console.error('[docket] The cloud keys kept on this device do not open:', error);
    return null;
  });
}

/** The user's keys on this device: in the account's own database, whichever space is open. */
export async function loadDeviceCloudKeys(userId: string): Promise<DeviceCloudKeys | null> {
  const store = liveAccountLocalStore();
  const row = await store.read(['settings'], (tx) =>
    tx.get('settings', cloudKeysSettingKey(userId)),
  );
  return row === undefined ? null : openStoredCloudKeys(row.value);
}

/** Keeps the keys: the bytes are written into the (sealed) settings row, then wiped here. */
export async function saveDeviceCloudKeys(
  userId: string,
  keys: DeviceCloudKeys,
  keyEncryptionKeyBytes: Uint8Array,
): Promise<void> {
  const stored: StoredCloudKeys = {
    keyEpoch: keys.keyEpoch,
    keyEncryptionKeyBytes,
    material: keys.material,
  };
  try {
    const store = liveAccountLocalStore();
    await store.write(['settings'], (tx) =>
      tx.put('settings', { key: cloudKeysSettingKey(userId), value: stored }),
    );
  } finally {
    keyEncryptionKeyBytes.fill(0);
  }
}
