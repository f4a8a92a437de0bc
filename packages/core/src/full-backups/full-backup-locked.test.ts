import { describe, expect, it } from 'vitest';
import { fullBackupRefusal, quickKdf } from '../test-support/full-backup-test-kit.ts';
import { createTag, tagBills } from '../commands/tag-commands.ts';
import { setPosition, setPositionReason } from '../commands/position-commands.ts';
import {
  createDeviceVault,
  deviceRowKey,
  wrapDeviceVaultKey,
} from '../crypto/device-vault-crypto.ts';
import type { DeviceVaultMaterial } from '../crypto/device-vault-crypto.ts';
import type { LocalStore, TableName } from '../store/local-store.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import { sealRow } from '../store/sealed-rows.ts';
import { isSealedTable } from '../store/sealed-tables.ts';
import { billIdOf, everything, storeWithBills, T0 } from '../test-support/bill-command-harness.ts';
import { webCrypto } from '../test-support/sync-devices.ts';
import { openFullBackup } from './full-backup-reader.ts';
import { restoreFullBackup } from './full-backup-restore.ts';
import { writeFullBackup, type WriteFullBackupOptions } from './full-backup-writer.ts';

// A locked account's full backup, made signed out (issue 38): its database read as stored, the
// private rows sealed under the account's vault key, that key wrapped under the account's
// password in the manifest. Only that password opens the file's private rows.

const PASSWORD = 'reporter x password';
const PASSPHRASE = 'a passphrase for backups while signed out';
const WHY = 'Source J.D. says the fiscal note is wrong';

/** Reporter X's device: bills, a tag on two, a position with its Why. */
async function reporterDevice(): Promise<LocalStore> {
  const { store, context } = await storeWithBills(5);
  const tag = await createTag(context, { name: 'Whistleblower', color: '#cc0000' });
  await tagBills(context, [billIdOf(1), billIdOf(2)], tag.id);
  await setPosition(context, billIdOf(3), 'oppose');
  await setPositionReason(context, billIdOf(3), WHY);
  return store;
}

/** The same rows as X's locked database stores them: each private table's sealed. */
async function lockedCopy(store: LocalStore): Promise<{
  locked: LocalStore;
  vault: DeviceVaultMaterial;
  passphraseVault: DeviceVaultMaterial;
}> {
  const { material, keyBytes } = await createDeviceVault(
    webCrypto,
    PASSWORD,
    'account-x',
    quickKdf,
  );
  const passphraseVault = await wrapDeviceVaultKey(
    webCrypto,
    keyBytes,
    PASSPHRASE,
    'account-x',
    quickKdf,
  );
  const rowKey = await deviceRowKey(webCrypto, keyBytes);
  const rows = await everything(store);
  const tables = Object.keys(rows) as TableName[];
  const stored = new Map<TableName, unknown[]>();
  for (const table of tables) {
    stored.set(
      table,
      isSealedTable(table)
        ? await Promise.all(
            rows[table].map((row) => sealRow(webCrypto, rowKey, table, row as never)),
          )
        : rows[table],
    );
  }
  const locked = createMemoryLocalStore();
  await locked.write(tables, async (tx) => {
    for (const table of tables) await tx.putMany(table, (stored.get(table) ?? []) as never[]);
  });
  return { locked, vault: material, passphraseVault };
}

function options(extra: Partial<WriteFullBackupOptions>): WriteFullBackupOptions {
  return {
    name: 'Locked account 1',
    nowMs: T0 + 60_000,
    reason: 'manual',
    crypto: webCrypto,
    deviceId: 'device-a',
    kdf: quickKdf,
    ...extra,
  };
}

describe("a locked account's full backup, made signed out", () => {
  it("asks for the account's password, refuses another, and restores the rows opened", async () => {
    const store = await reporterDevice();
    const { locked, vault } = await lockedCopy(store);
    const written = await writeFullBackup(
      locked,
      options({ lockedAccount: { accountId: 'account-x', vault } }),
    );
    // No passphrase, yet the private rows open only with the account's password.
    expect(written.encrypted).toBe(false);
    const asked = await fullBackupRefusal(openFullBackup(written.bytes, { crypto: webCrypto }));
    expect(asked.code).toBe('needs-account-password');
    expect(asked.message).toContain("Enter that account's password");
    const wrong = await fullBackupRefusal(
      openFullBackup(written.bytes, { crypto: webCrypto, accountPassword: 'someone else' }),
    );
    expect(wrong.code).toBe('wrong-account-password');

    const opened = await openFullBackup(written.bytes, {
      crypto: webCrypto,
      accountPassword: PASSWORD,
    });
    expect(opened.manifest.lockedAccount?.accountId).toBe('account-x');
    const target = createMemoryLocalStore();
    await restoreFullBackup(target, opened, {
      deviceId: 'device-b',
      nowMs: T0 + 120_000,
      keepJobIds: [],
    });
    const before = await everything(store);
    const after = await everything(target);
    for (const table of ['tags', 'billTags', 'positions', 'bills'] as const) {
      expect(after[table], table).toEqual(before[table]);
    }
    expect(JSON.stringify(after.positions)).toContain(WHY);
  });

  it('opens with the passphrase the account set for backups, as with its password; nothing else', async () => {
    const store = await reporterDevice();
    const { locked, vault, passphraseVault } = await lockedCopy(store);
    const written = await writeFullBackup(
      locked,
      options({ lockedAccount: { accountId: 'account-x', vault, passphraseVault } }),
    );
    const asked = await fullBackupRefusal(openFullBackup(written.bytes, { crypto: webCrypto }));
    expect(asked.code).toBe('needs-account-password');
    expect(asked.message).toContain('or the passphrase it set for backups');
    for (const secret of [PASSPHRASE, PASSWORD]) {
      const opened = await openFullBackup(written.bytes, {
        crypto: webCrypto,
        accountPassword: secret,
      });
      const target = createMemoryLocalStore();
      await restoreFullBackup(target, opened, {
        deviceId: 'device-b',
        nowMs: T0 + 120_000,
        keepJobIds: [],
      });
      expect(JSON.stringify((await everything(target)).positions)).toContain(WHY);
    }
    const wrong = await fullBackupRefusal(
      openFullBackup(written.bytes, { crypto: webCrypto, accountPassword: 'a guess' }),
    );
    expect(wrong.code).toBe('wrong-account-password');
    expect(wrong.message).toContain('or the passphrase it set for backups');
    // A passphrase's lock bound to another account opens nothing here.
    const other = await wrapDeviceVaultKey(
      webCrypto,
      new Uint8Array(32).fill(7),
      PASSPHRASE,
      'account-y',
      quickKdf,
    );
    const swapped = await writeFullBackup(
      locked,
      options({ lockedAccount: { accountId: 'account-x', vault, passphraseVault: other } }),
    );
    const refused = await fullBackupRefusal(
      openFullBackup(swapped.bytes, { crypto: webCrypto, accountPassword: PASSPHRASE }),
    );
    expect(refused.code).toBe('wrong-account-password');
    // Malformed, it is a changed file.
    const malformed = await writeFullBackup(
      locked,
      options({
        lockedAccount: {
          accountId: 'account-x',
          vault,
          passphraseVault: { ...passphraseVault, salt: 7 as unknown as string },
        },
      }),
    );
    const changed = await fullBackupRefusal(
      openFullBackup(malformed.bytes, { crypto: webCrypto, accountPassword: PASSWORD }),
    );
    expect(changed.code).toBe('tampered');
  });

  it('refuses a file whose account was swapped, and parameters that ask for gigabytes', async () => {
    const { locked, vault } = await lockedCopy(await reporterDevice());
    // The wrapped key is bound to its account: named as another's, it does not open.
    const swapped = await writeFullBackup(
      locked,
      options({ lockedAccount: { accountId: 'account-y', vault } }),
    );
    const refused = await fullBackupRefusal(
      openFullBackup(swapped.bytes, { crypto: webCrypto, accountPassword: PASSWORD }),
    );
    expect(refused.code).toBe('wrong-account-password');
    const greedy = await writeFullBackup(
      locked,
      options({
        lockedAccount: {
          accountId: 'account-x',
          vault: { ...vault, kdf: { ...vault.kdf, memoryKiB: 4 * 1024 * 1024 } },
        },
      }),
    );
    const tooMuch = await fullBackupRefusal(
      openFullBackup(greedy.bytes, { crypto: webCrypto, accountPassword: PASSWORD }),
    );
    expect(tooMuch.code).toBe('invalid-contents');
  });

  it('refuses a sealed row that was changed in the file', async () => {
    const { locked, vault } = await lockedCopy(await reporterDevice());
    // One sealed byte of the tag flipped, as a hand edit of the locked database would.
    const [tag] = await locked.read(['tags'], (tx) => tx.all('tags'));
    const sealed = (tag as unknown as { $sealed: Uint8Array }).$sealed;
    sealed[sealed.length - 1] = (sealed.at(-1) ?? 0) ^ 1;
    await locked.write(['tags'], (tx) => tx.put('tags', tag as never));
    const written = await writeFullBackup(
      locked,
      options({ lockedAccount: { accountId: 'account-x', vault } }),
    );
    const refused = await fullBackupRefusal(
      openFullBackup(written.bytes, { crypto: webCrypto, accountPassword: PASSWORD }),
    );
    expect(refused.code).toBe('tampered');
  });
});
