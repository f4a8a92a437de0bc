import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { buildBackupContents, countBackup } from './backup-contents.ts';
import { defaultLinkChoices, makeLinkPayload } from './link-contents.ts';
import {
  BackupOpenError,
  openBackupContents,
  openBackupMetadata,
  sealBackup,
  sealBytes,
  backupSealContext,
  unpackContents,
} from './backup-crypto.ts';
import { decodeBase64, encodeBase64 } from '../encoding/base64.ts';
import { createTag, tagBills } from '../commands/tag-commands.ts';
import { billIdOf, storeWithBills, T0 } from '../test-support/bill-command-harness.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import type { WebCryptoPort } from '../crypto/web-crypto.ts';
import {
  fragmentKeyOf,
  openLinkContents,
  PublicLinkKeyError,
  publicLinkUrl,
  sealLinkContents,
} from './public-link-crypto.ts';

const crypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;
const context = { userId: 'user-1', backupId: 'backup-1', epoch: 2 };

async function fixture() {
  const { store, context: commands } = await storeWithBills(2);
  const tag = await createTag(commands, { name: 'شفافية <b>x</b>', color: '#112233' });
  await tagBills(commands, [billIdOf(1)], tag.id);
  const contents = await buildBackupContents(store, new Date(T0).toISOString());
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
  const metadata = {
    name: 'Weekly',
    description: 'Before the hearing',
    counts: countBackup(contents),
  };
  const payload = makeLinkPayload(contents, metadata, defaultLinkChoices);
  return { contents, key, metadata, payload };
}

function flipByte(base64: string, index: number): string {
  const bytes = decodeBase64(base64) ?? new Uint8Array();
  bytes[index] = (bytes[index] ?? 0) ^ 1;
  return encodeBase64(bytes);
}

describe('sealed backups', () => {
  it('round-trip contents and metadata; the ciphertext holds no plaintext', async () => {
    const { contents, key, metadata } = await fixture();
    const sealed = await sealBackup(crypto, key, contents, metadata, context);
    expect(await openBackupContents(crypto, key, sealed.ciphertext, context)).toEqual(contents);
    expect(await openBackupMetadata(crypto, key, sealed.metadata, context)).toEqual(metadata);
    const raw = String.fromCharCode(...(decodeBase64(sealed.ciphertext) ?? []));
    expect(raw).not.toContain('Weekly');
    expect(sealed.metadata).not.toBe(
      (await sealBackup(crypto, key, contents, metadata, context)).metadata,
    );
  });

  it('keep the workspace a backup was made in, sealed, and refuse one that is not an id', async () => {
    const { contents, key, metadata } = await fixture();
    const team = { ...metadata, workspaceId: '6f1c2d4e-1111-4a2b-8c3d-000000000001' };
    const sealed = await sealBackup(crypto, key, contents, team, context);
    expect(await openBackupMetadata(crypto, key, sealed.metadata, context)).toEqual(team);
    const raw = String.fromCharCode(...(decodeBase64(sealed.metadata) ?? []));
    expect(raw).not.toContain('6f1c2d4e');
    await expect(
      sealBackup(crypto, key, contents, { ...metadata, workspaceId: '../other' }, context),
    ).rejects.toThrow();
  });

  it('refuse a flipped byte, another user, backup id or epoch, and swapped parts', async () => {
    const { contents, key, metadata } = await fixture();
    const sealed = await sealBackup(crypto, key, contents, metadata, context);
    const refused = async (attempt: Promise<unknown>, code: string) => {
      const error = await attempt.then(
        () => null,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(BackupOpenError);
      expect((error as BackupOpenError).code).toBe(code);
    };
    await refused(
      openBackupContents(crypto, key, flipByte(sealed.ciphertext, 30), context),
      'tampered',
    );
    await refused(
      openBackupContents(crypto, key, sealed.ciphertext, { ...context, userId: 'user-2' }),
      'tampered',
    );
    await refused(
      openBackupContents(crypto, key, sealed.ciphertext, { ...context, backupId: 'other' }),
      'tampered',
    );
    await refused(
      openBackupContents(crypto, key, sealed.ciphertext, { ...context, epoch: 1 }),
      'tampered',
    );
    await refused(openBackupContents(crypto, key, sealed.metadata, context), 'tampered');
    await refused(openBackupContents(crypto, key, 'AAAA', context), 'invalid');
    await refused(openBackupContents(crypto, key, '%%%', context), 'invalid');
  });

  it('refuse hostile contents sealed with the right key: not gzip, a bomb, bad rows', async () => {
    const { key } = await fixture();
    const seal = async (bytes: Uint8Array) =>
      encodeBase64(await sealBytes(crypto, key, bytes, backupSealContext('contents', context)));
    await expect(
      openBackupContents(crypto, key, await seal(encodeUtf8('plain')), context),
    ).rejects.toThrow(/does not decompress|cut short/);
    // The cap is 256 MiB; a smaller one here keeps the test quick, the path is the same.
    const bomb = gzipSync(new Uint8Array(4 * 1024 * 1024), { level: 9 });
    expect(() => unpackContents(bomb, 1024 * 1024)).toThrow(/expands to more/);
    const hostile = gzipSync(
      encodeUtf8(JSON.stringify({ format: 'docket-backup', version: 1, __proto__: { x: 1 } })),
    );
    await expect(openBackupContents(crypto, key, await seal(hostile), context)).rejects.toThrow(
      /damaged/,
    );
  });
});

describe('public link contents', () => {
  it('open with the key of the fragment, and share no clocks or datasets', async () => {
    const { contents, payload } = await fixture();
    const { ciphertext, fragmentKey } = await sealLinkContents(crypto, payload, 'link-1');
    const url = publicLinkUrl('https://docket.example', 'link-1', fragmentKey);
    expect(url).toMatch(/^https:\/\/docket\.example\/public-link\/link-1#k=[A-Za-z0-9_-]{43}$/);
    const key = fragmentKeyOf(url.slice(url.indexOf('#')));
    const opened = await openLinkContents(crypto, ciphertext, key, 'link-1');
    expect(opened.name).toBe('Weekly');
    expect(opened.contents.tags).toEqual(contents.tags);
    expect(opened.contents.clocks).toEqual({});
    expect(opened.contents.datasets).toEqual([]);
    expect(opened.contents.bills.every((bill) => bill.datasetIds.length === 0)).toBe(true);
  });

  it('say which: missing key, damaged key, wrong key or another link', async () => {
    const { payload } = await fixture();
    const { ciphertext, fragmentKey } = await sealLinkContents(crypto, payload, 'link-1');
    await expect(openLinkContents(crypto, ciphertext, null, 'link-1')).rejects.toBeInstanceOf(
      PublicLinkKeyError,
    );
    await expect(openLinkContents(crypto, ciphertext, 'short', 'link-1')).rejects.toThrow(
      /damaged/,
    );
    const other = await sealLinkContents(crypto, payload, 'link-1');
    await expect(openLinkContents(crypto, ciphertext, other.fragmentKey, 'link-1')).rejects.toThrow(
      /key is wrong/,
    );
    await expect(openLinkContents(crypto, ciphertext, fragmentKey, 'link-2')).rejects.toThrow(
      /key is wrong/,
    );
    expect(fragmentKeyOf('')).toBeNull();
    expect(fragmentKeyOf('#k=')).toBeNull();
  });
});
