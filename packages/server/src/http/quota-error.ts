import { ApiHttpError } from './api-error.ts';

export type QuotaKind = 'blobs' | 'log' | 'backups' | 'workspace-log';

const ADVICE: Record<QuotaKind, { what: string; then: string; whose?: string }> = {
  blobs: {
    what: 'dataset files',
    then: 'Your work stays on this device; ask whoever runs this Docket server for more room.',
  },
  log: {
    what: 'synced changes',
    then: 'Changes made here stay on this device; ask whoever runs this Docket server for more room.',
  },
  backups: {
    what: 'backups',
    then: 'Delete backups you no longer need, then try again.',
  },
  // A workspace has the room of one account, whoever of its members pushes.
  'workspace-log': {
    whose: "This workspace's",
    what: 'synced changes',
    then: 'Changes made here stay on this device; ask whoever runs this Docket server for more room.',
  },
};

/**
 * The answer when a write would take an account past its quota (QUOTA_*_MIB): 413
 * `quota-exceeded`, a 4xx so clients stop retrying, with a message fit to show as it is.
 */
export function quotaExceeded(
  kind: QuotaKind,
  usedBytes: number,
  limitBytes: number,
): ApiHttpError {
  const { what, then, whose = "Your account's" } = ADVICE[kind];
  return new ApiHttpError(
    413,
    'quota-exceeded',
    `${whose} space for ${what} on this server is full (${formatSize(usedBytes)} of ${formatSize(limitBytes)} used). ${then}`,
  );
}

function formatSize(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  if (mib >= 1024) return `${Number((mib / 1024).toFixed(2))} GiB`;
  if (mib >= 1) return `${Number(mib.toFixed(1))} MiB`;
  return `${Math.ceil(bytes / 1024)} KiB`;
}
