import { useAccountSetting } from '../local-store/live-settings.ts';
import { useAppState } from '../state/use-app-state.ts';
import { useEffect, useState } from 'react';
import {
  cloudKeysSettingKey,
  openStoredCloudKeys,
  type DeviceCloudKeys,
} from '../sync/cloud-keys-store.ts';

// Backups are sealed with the sync data key, so they need this device to hold the user's cloud
// keys (set or entered under More → "Cloud password"). The keys row is watched live: entering
// the password in the modal makes the backup screens usable without a reload.

export type BackupKeys =
  | { readonly status: 'loading' }
  | { readonly status: 'signed-out' }
  | { readonly status: 'no-password' }
  | { readonly status: 'ready'; readonly userId: string; readonly keys: DeviceCloudKeys };

export function useBackupKeys(): BackupKeys {
  const userId = useAppState((state) => state.user?.id ?? null);
  const row = useAccountSetting(userId === null ? null : cloudKeysSettingKey(userId));
  // The stored bytes become handles asynchronously; `of` says which row they were opened from.
  const [opened, setOpened] = useState<{ of: unknown; keys: DeviceCloudKeys | null } | null>(null);
  const value = row?.value;
  useEffect(() => {
    if (value === undefined) return;
    let current = true;
    void openStoredCloudKeys(value).then((keys) => {
      if (current) setOpened({ of: value, keys });
    });
    return () => {
      current = false;
    };
  }, [value]);
  if (userId === null) return { status: 'signed-out' };
  if (row === undefined) return { status: 'loading' };
  if (row === null) return { status: 'no-password' };
  if (opened === null || opened.of !== value) return { status: 'loading' };
  if (opened.keys === null) return { status: 'no-password' };
  return { status: 'ready', userId, keys: opened.keys };
}
