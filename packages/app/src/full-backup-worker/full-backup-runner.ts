import {
  checkFullBackupRequest,
  FullBackupError,
  type FullBackupJobContext,
  type FullBackupLockedAccount,
  type FullBackupManifest,
  type FullBackupRequest,
  type FullBackupMergeSummary,
  type FullBackupReplaceLoss,
  inspectFullBackup,
  openFullBackup,
  planFullBackupMerge,
  planFullBackupReplaceLoss,
  queueFullBackupJob,
  runFullBackupJob,
  runRestoreJob,
} from '@docket/core/full-backups';
import type { LocalStore, TableName } from '@docket/core/store';
import { IMPORTS_LOCK, jobLockName, type JobLocks } from '../import-worker/job-locks.ts';
import { lockedBackupId } from '../local-store/locked-backups.ts';
import { traceJobEnd } from '../trace/trace-events.ts';

// What the full-backup worker does, against injected platform pieces so it runs the same in
// the worker and in unit tests. Jobs hold the same per-job Web Lock as imports (so the import
// worker's start-up check sees them alive) and the imports' lock while they run (so no import
// writes the store while it is saved or replaced). Each job's end goes to the trace, as an
// import's does.

/** A stored full backup, or a file the user picked (a fresh device restoring a download). */
export type FullBackupSource =
  | { readonly kind: 'stored'; readonly id: string }
  | { readonly kind: 'file'; readonly file: Blob; readonly name: string };

export interface FullBackupPreview {
  readonly version: 1 | 2;
  readonly encrypted: boolean;
  readonly createdAt: string | null;
  readonly manifest: FullBackupManifest;
  readonly tables: readonly { table: TableName; rows: number }[];
  readonly size: number;
  /** Made by this device (by its id), when the file says which device made it. */
  readonly thisDevice: boolean | null;
  /** What Merge would add and change on this device now. */
  readonly merge: FullBackupMergeSummary;
  /** What Replace would remove on this device now. */
  readonly replaceLoss: FullBackupReplaceLoss;
}

/** How a restore treats the device's data: merged with the backup, or replaced by it. */
export type RestoreMode = 'merge' | 'replace';

export type Refusal = {
  readonly ok: false;
  readonly code: FullBackupError['code'] | 'failed';
  readonly message: string;
};
export type PreviewAnswer = { readonly ok: true; readonly preview: FullBackupPreview } | Refusal;
export type JobAnswer = { readonly ok: true; readonly jobId: string } | Refusal;

/** A locked account on this browser: its database and the id its vault is bound to. */
export interface LockedAccountRef {
  readonly database: string;
  readonly accountId: string;
}

export interface FullBackupApi {
  /** Queues a full backup of the device and starts it; answers once it is queued. */
  create(request: FullBackupRequest): Promise<JobAnswer>;
  /**
   * Queues a full backup of a locked account's database as it is stored (its private rows
   * sealed, its wrapped vault key in the file), kept with this device's full backups.
   */
  createLocked(request: FullBackupRequest, account: LockedAccountRef): Promise<JobAnswer>;
  /**
   * Checks a backup from end to end and says what it holds; changes nothing. A locked
   * account's file needs that account's password too.
   */
  preview(
    source: FullBackupSource,
    passphrase: string,
    accountPassword?: string,
  ): Promise<PreviewAnswer>;
  /** Queues a restore and starts it; answers once it is queued. */
  restore(
    source: FullBackupSource,
    passphrase: string,
    mode: RestoreMode,
    accountPassword?: string,
  ): Promise<JobAnswer>;
}

/** A locked account's database opened to be read as stored, and its lock (wrapped vault key). */
export interface LockedSource {
  readonly store: LocalStore;
  readonly account: FullBackupLockedAccount;
  close(): void;
}

export interface FullBackupRunnerDeps extends Omit<FullBackupJobContext, 'deviceId'> {
  readonly locks: JobLocks;
  /** Opens a locked account's database as stored; absent where there are no vaults. */
  readonly openLocked?: (account: LockedAccountRef) => Promise<LockedSource>;
  readonly deviceId: () => Promise<string>;
  readonly onError?: (error: unknown) => void;
}

function refusal(error: unknown): Refusal {
  if (error instanceof FullBackupError)
    return { ok: false, code: error.code, message: error.message };
  return {
    ok: false,
    code: 'failed',
    message: error instanceof Error ? error.message : String(error),
  };
}

/** What a runner's functions share: its platform pieces and where a failure is reported. */
interface FullBackupRunner {
  readonly deps: FullBackupRunnerDeps;
  readonly report: (error: unknown) => void;
}

/**
 * The context of one job. Ids it hands out are noted, because a restore makes a job of its
 * own with one (the safety copy of the device), whose end is traced with the restore's.
 */
async function jobContextOf(
  deps: FullBackupRunnerDeps,
  minted: string[],
): Promise<FullBackupJobContext> {
  return {
    store: deps.store,
    crypto: deps.crypto,
    deviceId: await deps.deviceId(),
    now: deps.now,
    newId: () => {
      const id = deps.newId();
      minted.push(id);
      return id;
    },
    ...(deps.kdf === undefined ? {} : { kdf: deps.kdf }),
  };
}

/**
 * Writes the end of the job, and of jobs it made, to the trace. After the work, not within
 * it: a restore replaces the trace with the file's, which would take entries made before.
 */
async function traceEnds(store: LocalStore, jobIds: readonly string[]): Promise<void> {
  const jobs = await store.read(['jobs'], (tx) => tx.getMany('jobs', jobIds));
  for (const job of jobs) if (job !== undefined) await traceJobEnd(store, job);
}

/** Runs a queued job under its lock and the imports' lock; failures are in its job row. */
function run(
  runner: FullBackupRunner,
  jobId: string,
  minted: readonly string[],
  work: () => Promise<unknown>,
): Promise<void> {
  const { deps, report } = runner;
  return new Promise<void>((queued, failed) => {
    deps.locks
      .hold(jobLockName(jobId), async () => {
        queued();
        try {
          await deps.locks.hold(IMPORTS_LOCK, work);
        } catch (error) {
          // A refusal is already the job's message; anything else is worth a report too.
          if (!(error instanceof FullBackupError)) report(error);
        }
        // Still under the job's lock, so whoever waits for the job sees its trace too.
        await traceEnds(deps.store, [...minted, jobId]).catch(report);
      })
      .catch((error: unknown) => {
        failed(error instanceof Error ? error : new Error(String(error)));
      });
  });
}

/** The bytes of a backup (a picked file's, or a stored backup's) and the name it goes by. */
async function bytesOf(
  store: LocalStore,
  source: FullBackupSource,
): Promise<{ bytes: Uint8Array; label: string }> {
  if (source.kind === 'file') {
    return { bytes: new Uint8Array(await source.file.arrayBuffer()), label: source.name };
  }
  const stored = await store.read(['fullBackups'], (tx) => tx.get('fullBackups', source.id));
  if (stored === undefined) {
    throw new FullBackupError('not-found', 'There is no full backup with this id on this device.');
  }
  return { bytes: stored.bytes, label: stored.name };
}

/**
 * A full backup as a job: of this device, or of a locked account's database as stored (its id
 * then names that database: it goes with the account, local-store/locked-backups.ts).
 */
async function createBackup(
  runner: FullBackupRunner,
  request: FullBackupRequest,
  locked: { readonly source: LockedSource; readonly account: LockedAccountRef } | null,
): Promise<JobAnswer> {
  const { deps } = runner;
  try {
    const { name } = checkFullBackupRequest(request);
    const minted: string[] = [];
    const jobContext = await jobContextOf(deps, minted);
    const jobId = deps.newId();
    const backupId =
      locked === null ? deps.newId() : lockedBackupId(locked.account.database, deps.newId());
    await queueFullBackupJob(
      deps.store,
      { id: jobId, kind: 'full-backup', subjectId: backupId, label: name },
      deps.now(),
    );
    await run(runner, jobId, minted, () =>
      runFullBackupJob(jobContext, {
        jobId,
        backupId,
        name,
        ...(request.passphrase === '' ? {} : { passphrase: request.passphrase }),
        ...(locked === null
          ? {}
          : { locked: { source: locked.source.store, account: locked.source.account } }),
      }).finally(() => locked?.source.close()),
    );
    return { ok: true, jobId };
  } catch (error) {
    locked?.source.close();
    return refusal(error);
  }
}

/** FullBackupApi.createLocked: the locked account's database opened, then backed up as stored. */
async function createLockedBackup(
  runner: FullBackupRunner,
  request: FullBackupRequest,
  account: LockedAccountRef,
): Promise<JobAnswer> {
  const { deps } = runner;
  if (deps.openLocked === undefined) {
    return refusal(
      new FullBackupError('not-found', 'This browser keeps no locked account to back up.'),
    );
  }
  let locked: LockedSource;
  try {
    locked = await deps.openLocked(account);
  } catch (error) {
    return refusal(error);
  }
  // The job runs on after the answer; the locked database is closed once it is done.
  return createBackup(runner, request, { source: locked, account });
}

/** FullBackupApi.preview: the backup opened and checked, and what Merge and Replace would do. */
async function previewBackup(
  deps: FullBackupRunnerDeps,
  source: FullBackupSource,
  passphrase: string,
  accountPassword = '',
): Promise<PreviewAnswer> {
  try {
    const { bytes } = await bytesOf(deps.store, source);
    const info = inspectFullBackup(bytes);
    const opened = await openFullBackup(bytes, {
      crypto: deps.crypto,
      ...(passphrase === '' ? {} : { passphrase }),
      ...(accountPassword === '' ? {} : { accountPassword }),
    });
    const deviceId = await deps.deviceId();
    const [merge, replaceLoss] = await Promise.all([
      planFullBackupMerge(deps.store, opened),
      planFullBackupReplaceLoss(deps.store, opened, { deviceId }),
    ]);
    return {
      ok: true,
      preview: {
        version: info.version,
        encrypted: opened.encrypted,
        createdAt: opened.createdAt,
        manifest: opened.manifest,
        tables: opened.tables,
        size: bytes.length,
        thisDevice:
          opened.manifest.deviceId === null ? null : opened.manifest.deviceId === deviceId,
        merge,
        replaceLoss,
      },
    };
  } catch (error) {
    return refusal(error);
  }
}

/** FullBackupApi.restore: a restore queued as a job and started. */
async function restoreBackup(
  runner: FullBackupRunner,
  source: FullBackupSource,
  passphrase: string,
  mode: RestoreMode,
  accountPassword = '',
): Promise<JobAnswer> {
  const { deps } = runner;
  try {
    const { bytes, label } = await bytesOf(deps.store, source);
    const minted: string[] = [];
    const jobContext = await jobContextOf(deps, minted);
    const jobId = deps.newId();
    await queueFullBackupJob(
      deps.store,
      {
        id: jobId,
        kind: 'full-backup-restore',
        subjectId: source.kind === 'stored' ? source.id : jobId,
        label,
      },
      deps.now(),
    );
    await run(runner, jobId, minted, () =>
      runRestoreJob(jobContext, {
        jobId,
        bytes,
        label,
        mode,
        ...(passphrase === '' ? {} : { passphrase }),
        ...(accountPassword === '' ? {} : { accountPassword }),
      }),
    );
    return { ok: true, jobId };
  } catch (error) {
    return refusal(error);
  }
}

export function createFullBackupRunner(deps: FullBackupRunnerDeps): FullBackupApi {
  const runner: FullBackupRunner = {
    deps,
    report:
      deps.onError ??
      ((error: unknown) => {
        console.error('[docket] Full backup job failed:', error);
      }),
  };
  return {
    create: (request) => createBackup(runner, request, null),
    createLocked: (request, account) => createLockedBackup(runner, request, account),
    preview: (source, passphrase, accountPassword) =>
      previewBackup(deps, source, passphrase, accountPassword),
    restore: (source, passphrase, mode, accountPassword) =>
      restoreBackup(runner, source, passphrase, mode, accountPassword),
  };
}
