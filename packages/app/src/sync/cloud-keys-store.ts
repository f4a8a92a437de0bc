import type { CloudKeyMaterial, OpaqueCryptoKey } from '@docket/core/crypto';
import { pageLocalStore } from '../bills/bill-command-services.ts';

// This device's cloud keys, per user, in the settings table under a `device:` key (never
// synced). IndexedDB stores CryptoKey objects as they are, non-extractable included: the device
// syncs after a restart without asking for the password, and a script that reads storage gets
// handles usable only here, never key bytes.

export interface DeviceCloudKeys {
  readonly keyEpoch: number;
  readonly dataKey: OpaqueCryptoKey;
  readonly keyEncryptionKey: OpaqueCryptoKey;
  readonly material: CloudKeyMaterial;
}

/** The setting a user's keys are kept under on this device. */
export function cloudKeysSettingKey(userId: string): string {
  return `device:cloud-keys:${userId}`;
}

export function isDeviceCloudKeys(value: unknown): value is DeviceCloudKeys {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.keyEpoch === 'number' &&
    typeof record.dataKey === 'object' &&
    record.dataKey !== null &&
    typeof record.keyEncryptionKey === 'object' &&
    record.keyEncryptionKey !== null &&
    typeof record.material === 'object' &&
    record.material !== null
  );
}

export async function loadDeviceCloudKeys(userId: string): Promise<DeviceCloudKeys | null> {
  const store = await pageLocalStore();
  const row = await store.read(['settings'], (tx) =>
    tx.get('settings', cloudKeysSettingKey(userId)),
  );
  return row !== undefined && isDeviceCloudKeys(row.value) ? row.value : null;
}

export async function saveDeviceCloudKeys(userId: string, keys: DeviceCloudKeys): Promise<void> {
  const store = await pageLocalStore();
  await store.write(['settings'], (tx) =>
    tx.put('settings', { key: cloudKeysSettingKey(userId), value: keys }),
  );
}
