import { SyncCryptoError, type CloudKeyMaterial, type UnlockedKeys } from '@docket/core/crypto';
import type { LocalStore } from '@docket/core/store';
import { cursorSchema, syncCursorSetting } from '@docket/core/sync';
import { unreceivedResponseSchema } from '@docket/protocol/sync-changes';
import {
  putSyncSettingsRequestSchema,
  syncSettingsSchema,
  type SyncSettings,
  type SyncSettingsWrite,
} from '@docket/protocol/sync-settings';
import { syncPaths } from '@docket/protocol/sync-wire';
import { ApiRequestError, type ApiClient } from '../api/api-client.ts';
import type { CloudKeyApi } from '../cloud-key-worker/cloud-key-worker.ts';
import type { DeviceCloudKeys } from './cloud-keys-store.ts';

// What the "Cloud password" button does with the modal's answer: set a first password, join this
// device to an existing one, or change it. The keys this device keeps are non-extractable; the
// server gets only the verifier, the salts, the parameters and the wrapped data key.

export function fetchSyncSettings(api: ApiClient): Promise<SyncSettings> {
  return api({ method: 'GET', path: syncPaths.settings, response: syncSettingsSchema });
}

/** The key material in the user's settings, or null while there is no cloud password. */
export function materialFromSettings(settings: SyncSettings): CloudKeyMaterial | null {
  const { passwordHash, keyDerivation, wrappedDataKey, keyEpoch } = settings;
  if (passwordHash === null || keyDerivation === null || wrappedDataKey === null) return null;
  const { salt, ...kdf } = keyDerivation;
  return { kdf, kekSalt: salt, passwordHash, wrappedDataKey, keyEpoch };
}

function writeFromMaterial(material: CloudKeyMaterial): SyncSettingsWrite {
  return {
    passwordHash: material.passwordHash,
    keyDerivation: { ...material.kdf, salt: material.kekSalt },
    wrappedDataKey: material.wrappedDataKey,
    keyEpoch: material.keyEpoch,
  };
}

async function writeMaterial(
  api: ApiClient,
  expectedVersion: number,
  material: CloudKeyMaterial,
): Promise<SyncSettings> {
  const body = putSyncSettingsRequestSchema.parse({
    expectedVersion,
    settings: writeFromMaterial(material),
  });
  try {
    return await api({
      method: 'PUT',
      path: syncPaths.settings,
      body,
      response: syncSettingsSchema,
    });
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 409) {
      throw new CloudPasswordError(
        'The cloud password was changed on another device meanwhile. Open Cloud password again to use it.',
      );
    }
    throw error;
  }
}

/** A refusal with a message for the user; nothing was changed. */
export class CloudPasswordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CloudPasswordError';
  }
}

export type CloudPasswordMode = 'set' | 'enter' | 'change';

/** What the modal is for, given the settings and whether this device already has the keys. */
export function cloudPasswordMode(
  settings: SyncSettings,
  deviceKeys: DeviceCloudKeys | null,
): CloudPasswordMode {
  const material = materialFromSettings(settings);
  if (material === null) return 'set';
  // Keys from before a change or a reset made elsewhere no longer match what the server holds:
  // this device must learn the new password, never write over it with its old keys.
  const current =
    deviceKeys !== null &&
    deviceKeys.keyEpoch === material.keyEpoch &&
    deviceKeys.material.passwordHash === material.passwordHash &&
    deviceKeys.material.wrappedDataKey === material.wrappedDataKey;
  return current ? 'change' : 'enter';
}

/** What the work after Go is doing, in order; each step is said while it runs. */
export type CloudPasswordStep = 'derive' | 'save' | 'keep' | 'truth';

export const cloudPasswordStepWords: Record<CloudPasswordStep, string> = {
  derive: 'Deriving the key…',
  save: 'Saving the wrapped key on the Docket server…',
  keep: 'Keeping the key on this device…',
  truth: "Queuing this device's data to upload under the new password…",
};

export interface CloudPasswordProgress {
  readonly step: CloudPasswordStep;
  /** 1 for the first step. */
  readonly index: number;
  readonly count: number;
}

export interface CloudPasswordDeps {
  readonly api: ApiClient;
  /** The key work (Argon2id, wrapping), off the page: cloud-key-client.ts. */
  readonly keys: CloudKeyApi;
  /** Keeps the keys on this device; the key-encryption key's bytes go only into the sealed store. */
  readonly saveKeys: (keys: DeviceCloudKeys, keyEncryptionKeyBytes: Uint8Array) => Promise<void>;
  /** Told as each step starts. */
  readonly onStep?: (progress: CloudPasswordProgress) => void;
}

function stepper(deps: CloudPasswordDeps, steps: readonly CloudPasswordStep[]) {
  return (step: CloudPasswordStep) => {
    deps.onStep?.({ step, index: steps.indexOf(step) + 1, count: steps.length });
  };
}

function deviceKeys(material: CloudKeyMaterial, keys: UnlockedKeys): DeviceCloudKeys {
  return {
    keyEpoch: material.keyEpoch,
    dataKey: keys.dataKey,
    keyEncryptionKey: keys.keyEncryptionKey,
    material,
  };
}

/** Carries out an entered password; returns the sentence that tells the user what happened. */
export async function applyEnteredPassword(
  deps: CloudPasswordDeps,
  settings: SyncSettings,
  current: DeviceCloudKeys | null,
  password: string,
): Promise<string> {
  const mode = cloudPasswordMode(settings, current);
  const material = materialFromSettings(settings);
  try {
    if (mode === 'set' || material === null) {
      const step = stepper(deps, ['derive', 'save', 'keep']);
      step('derive');
      const made = await deps.keys.create(password, settings.keyEpoch);
      step('save');
      await writeMaterial(deps.api, settings.version, made.material);
      step('keep');
      await deps.saveKeys(deviceKeys(made.material, made.keys), made.keys.keyEncryptionKeyBytes);
      return 'The cloud password is set. Other devices ask for it when they first sync.';
    }
    if (mode === 'enter' || current === null) {
      const step = stepper(deps, ['derive', 'keep']);
      step('derive');
      const keys = await deps.keys.unlock(password, material);
      step('keep');
      await deps.saveKeys(deviceKeys(material, keys), keys.keyEncryptionKeyBytes);
      return 'This device now has the cloud password.';
    }
    const step = stepper(deps, ['derive', 'save', 'keep']);
    step('derive');
    const changed = await deps.keys.change(
      { material, keyEncryptionKey: current.keyEncryptionKey },
      password,
    );
    step('save');
    await writeMaterial(deps.api, settings.version, changed.material);
    step('keep');
    await deps.saveKeys(
      deviceKeys(changed.material, changed.keys),
      changed.keys.keyEncryptionKeyBytes,
    );
    return 'The cloud password is changed. Your other devices ask for the new one when they next sync.';
  } catch (error) {
    if (error instanceof SyncCryptoError) throw new CloudPasswordError(error.message);
    throw error;
  }
}

/**
 * A reset (spec §2's "Reset password", after Confirm): a new data key under the next key epoch,
 * written compare-and-set; then `makeTruth` queues this device's data for upload under the new
 * epoch (core's prepareResetUpload), and only then are the keys kept on this device (below, why).
 * Other devices revert to it once they have the new password.
 */
export async function resetCloudPassword(
  deps: CloudPasswordDeps & {
    readonly makeTruth: (written: SyncSettings) => Promise<void>;
  },
  settings: SyncSettings,
  password: string,
): Promise<string> {
  try {
    const step = stepper(deps, ['derive', 'save', 'truth', 'keep']);
    step('derive');
    const made = await deps.keys.create(password, settings.keyEpoch + 1);
    step('save');
    const written = await writeMaterial(deps.api, settings.version, made.material);
    // The device's data is made the new epoch's truth (its cursor moved there, its rows queued)
    // before it keeps the new keys. The other way round, a sync run started in between (the
    // server's nudge for the new settings comes at once) found the new keys and a cursor still
    // in the old epoch, took this device for one that must revert, and emptied its own data.
    // In this order such a run finds no keys for the new epoch and only asks for the password.
    step('truth');
    await deps.makeTruth(written);
    step('keep');
    await deps.saveKeys(deviceKeys(made.material, made.keys), made.keys.keyEncryptionKeyBytes);
    return "The cloud password is reset. Your other devices ask for the new one, save a full backup of their own data, then take this device's data.";
  } catch (error) {
    if (error instanceof SyncCryptoError) throw new CloudPasswordError(error.message);
    throw error;
  }
}

/**
 * How many log entries (envelopes of one or more changes) other devices synced under the current
 * key epoch that this device has not received: what a reset made here would take out of the
 * account. The server is sent this device's pull cursor (the epoch's start when the cursor is
 * under another epoch, as the sync engine would start) and its id, and counts; it reads nothing.
 */
export async function countUnreceived(
  api: ApiClient,
  device: { readonly store: LocalStore; readonly userId: string; readonly deviceId: string },
  settings: SyncSettings,
): Promise<number> {
  const row = await device.store.read(['settings'], (tx) =>
    tx.get('settings', syncCursorSetting(device.userId)),
  );
  const cursor = cursorSchema.safeParse(row?.value);
  const since =
    cursor.success && cursor.data.epoch === settings.keyEpoch
      ? cursor.data.seqno
      : settings.epochStartSeqno;
  const query = new URLSearchParams({ since: String(since), deviceId: device.deviceId });
  const answer = await api({
    method: 'GET',
    path: `${syncPaths.unreceived}?${query.toString()}`,
    response: unreceivedResponseSchema,
  });
  return answer.envelopes;
}
