import { decodeHlc } from '@docket/core/merge';
import { createMemoryLocalStore, type LocalStore } from '@docket/core/store';
import type { WebCryptoPort } from '@docket/core/crypto';
import { defaultLinkChoices, makeLinkPayload, sealLinkContents } from '@docket/core/backups';
import { createTag, laterBill, tagBills, trackBill } from '@docket/core/commands';
import { outboxOf, storedBill, testContext } from '@docket/core/test-support/bill-command-harness';
import type { CreateBackupRequest } from '@docket/protocol/backups';
import type { CreateLinkRequest } from '@docket/protocol/public-links';
import { describe, expect, it } from 'vitest';
import { createBackupRunner } from './backup-runner.ts';

// The worker's backup API on memory stores: a backup is read, sealed and handed to the upload
// as a job whose steps and end are recorded; it opens again; a restore is planned without
// writing, then applied as this device (its id and clock) as a job; a shared link opens, and a
// damaged key or a wrong one is told apart.

const webCrypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;

function dataKey() {
  return webCrypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
}

async function jobsOf(store: LocalStore) {
  return store.read(['jobs'], (tx) => tx.all('jobs'));
}

async function tracedJobs(store: LocalStore): Promise<string[]> {
  const rows = await store.read(['trace'], (tx) => tx.all('trace'));
  return rows
    .filter((row) => row.kind === 'job')
    .map((row) => `${String(row.details.job)} ${String(row.details.status)}`);
}

/** A team workspace's id, for a backup made in its space. */
const TEAM = '6f1c2d4e-1111-4a2b-8c3d-000000000001';

describe('the backup runner', () => {
  it('makes, opens, plans and restores a backup as jobs, and opens a shared link', async () => {
    const source = createMemoryLocalStore();
    await source.write(['bills'], (tx) => tx.put('bills', storedBill(1)));
    const sourceContext = testContext(source, 'device-a');
    await trackBill(sourceContext, 'us/119/hr-1');
    await createTag(sourceContext, { name: 'Housing', color: '#cc0000' });
    const runner = createBackupRunner(() => Promise.resolve(sourceContext));
    const key = await dataKey();
    const request = {
      userId: 'user-1',
      epoch: 1,
      dataKey: key,
      name: 'Weekly',
      description: '',
      workspaceId: null,
    };

    const uploads: CreateBackupRequest[] = [];
    const backupId = await runner.createBackup(request, (body) => {
      uploads.push(body);
      return Promise.resolve();
    });
    await expect(
      runner.createBackup({ ...request, name: 'Offline' }, () =>
        Promise.reject(new Error('The Docket server cannot be reached.')),
      ),
    ).rejects.toThrow('The Docket server cannot be reached.');
    expect(uploads.map((body) => [body.id, body.epoch])).toEqual([[backupId, 1]]);
    // Jobs are kept by random id; sorted here by label.
    const made = (await jobsOf(source)).sort((a, b) =>
      (b.label ?? '').localeCompare(a.label ?? ''),
    );
    expect(made.map((job) => [job.kind, job.label, job.status, job.progress.recordsRead])).toEqual([
      ['backup', 'Weekly', 'done', 3],
      // Read and sealed (two steps), then the upload failed.
      ['backup', 'Offline', 'failed', 2],
    ]);
    expect(made[1]?.message).toBe('The Docket server cannot be reached.');
    expect(await tracedJobs(source)).toEqual(['backup done', 'backup failed']);

    const [upload] = uploads;
    if (upload === undefined) throw new Error('Nothing was uploaded');
    const backup = { ...upload, size: 1, createdAt: new Date().toISOString() };
    const opened = await runner.openBackup(backup, 'user-1', key);
    if (!opened.ok) throw new Error(opened.message);
    expect(opened.metadata).toMatchObject({ name: 'Weekly', counts: { bills: 1, tags: 1 } });
    // Made in the personal space: no workspace is named in it.
    expect(opened.metadata.workspaceId).toBeUndefined();
    expect(opened.contents.decisions).toHaveLength(1);
    // Bound to its user: another's key context fails the integrity check.
    expect(await runner.openBackup(backup, 'user-2', key)).toEqual({
      ok: false,
      message: expect.stringMatching(/integrity check/) as unknown,
    });

    const target = createMemoryLocalStore();
    const onTarget = createBackupRunner(() => Promise.resolve(testContext(target, 'device-b')));
    const plans = await onTarget.planRestore(opened.contents);
    expect(plans.merge.kinds.decisions.added).toBe(1);
    expect(plans.replace.billsAdded).toBe(1);
    expect(await target.read(['decisions'], (tx) => tx.count('decisions'))).toBe(0);

    const result = await onTarget.restoreContents({
      contents: opened.contents,
      mode: 'merge',
      subjectId: backupId,
      label: 'Weekly',
    });
    expect(result.safetyCopy.name).toMatch(/^Before restoring “Weekly”/);
    expect(await target.read(['decisions'], (tx) => tx.count('decisions'))).toBe(1);
    const outbox = await outboxOf(target);
    expect(outbox.length).toBeGreaterThan(0);
    for (const entry of outbox) expect(decodeHlc(entry.id).deviceId).toBe('device-b');
    const [restore] = await jobsOf(target);
    expect(restore).toMatchObject({
      kind: 'restore',
      subjectId: backupId,
      status: 'done',
      result: { added: 3, updated: 0, removed: 0 },
    });
    expect(await tracedJobs(target)).toEqual(['restore done']);

    const payload = makeLinkPayload(opened.contents, opened.metadata, defaultLinkChoices);
    const link = await sealLinkContents(webCrypto, payload, 'link-1');
    const shared = await runner.openLink(link.ciphertext, link.fragmentKey, 'link-1');
    expect(shared.ok && shared.link.name).toBe('Weekly');
    expect(shared.ok && shared.link.contents.decisions.map((row) => row.decision)).toEqual([
      'track',
    ]);
    // A tag no shared bill carries stays out of the link.
    expect(shared.ok && shared.link.contents.tags).toEqual([]);
    expect(await runner.openLink(link.ciphertext, 'damaged', 'link-1')).toMatchObject({
      ok: false,
      keyProblem: 'bad-key',
    });
    const other = await sealLinkContents(webCrypto, payload, 'link-2');
    expect(await runner.openLink(link.ciphertext, other.fragmentKey, 'link-1')).toMatchObject({
      ok: false,
      keyProblem: null,
      code: 'tampered',
      message: expect.stringMatching(/its key is wrong/) as unknown,
    });
  });

  it('shares a list: a backup of its bills only, then its link, in one job', async () => {
    const source = createMemoryLocalStore();
    await source.write(['bills'], (tx) =>
      tx.putMany('bills', [storedBill(1), storedBill(2), storedBill(3)]),
    );
    const context = testContext(source, 'device-a');
    const [first, second, third] = ['us/119/hr-1', 'us/119/hr-2', 'us/119/hr-3'];
    await trackBill(context, first);
    await trackBill(context, second);
    await laterBill(context, third);
    const tag = await createTag(context, { name: 'Housing', color: '#cc0000' });
    await tagBills(context, [first, third], tag.id);
    const runner = createBackupRunner(() => Promise.resolve(context));
    const key = await dataKey();
    const request = {
      userId: 'user-1',
      epoch: 1,
      dataKey: key,
      name: 'Tracked',
      description: '',
      billIds: [second, first],
      notes: true,
      workspaceId: TEAM,
    };
    const uploads: CreateBackupRequest[] = [];
    const links: CreateLinkRequest[] = [];
    const shared = await runner.shareList(
      request,
      (body) => {
        uploads.push(body);
        return Promise.resolve();
      },
      (body) => {
        links.push(body);
        return Promise.resolve();
      },
    );
    expect(links).toEqual([
      {
        id: shared.linkId,
        backupId: shared.backupId,
        ciphertext: expect.any(String) as unknown,
        expiresAt: null,
      },
    ]);
    expect(uploads.map((body) => body.id)).toEqual([shared.backupId]);
    expect(shared.counts).toMatchObject({ bills: 2, tracked: 2, later: 0, tags: 1 });
    const [link] = links;
    if (link === undefined) throw new Error('No link was published');
    const opened = await runner.openLink(link.ciphertext, shared.fragmentKey, shared.linkId);
    if (!opened.ok) throw new Error(opened.message);
    expect(opened.link.kind).toBe('list');
    // The list's bills, in its order; the bill for later stays out.
    expect(opened.link.contents.bills.map((bill) => bill.id)).toEqual([second, first]);
    const [upload] = uploads;
    if (upload === undefined) throw new Error('Nothing was uploaded');
    const backup = await runner.openBackup(
      { ...upload, size: 1, createdAt: new Date().toISOString() },
      'user-1',
      key,
    );
    expect(backup.ok && backup.contents.bills.map((bill) => bill.id)).toEqual([second, first]);
    // Shared from a workspace's space, its backup says which, sealed with the rest.
    expect(backup.ok && backup.metadata.workspaceId).toBe(TEAM);
    expect((await jobsOf(source)).map((job) => [job.kind, job.label, job.status])).toEqual([
      ['backup', 'Tracked', 'done'],
    ]);

    // The link refused: the job fails with the server's words, and so does the share.
    await expect(
      runner.shareList(
        request,
        () => Promise.resolve(),
        () => Promise.reject(new Error('Too many links of this backup.')),
      ),
    ).rejects.toThrow('Too many links of this backup.');
  });
});
