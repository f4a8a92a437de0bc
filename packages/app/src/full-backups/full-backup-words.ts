import type {
  FullBackupMergeSummary,
  FullBackupReplaceLoss,
  MergeKindCount,
} from '@docket/core/full-backups';
import type { TableName } from '@docket/core/store';
import { plural } from '../ui/formatting.ts';

// The words the full-backup screens use for what a backup holds.

const tableWords: Readonly<Record<TableName, readonly [string, string]>> = {
  bills: ['bill', 'bills'],
  datasets: ['dataset', 'datasets'],
  datasetFiles: ['dataset file', 'dataset files'],
  jobs: ['job', 'jobs'],
  tags: ['tag', 'tags'],
  billTags: ['tag on a bill', 'tags on bills'],
  positions: ['position', 'positions'],
  decisions: ['triage decision', 'triage decisions'],
  annotations: ['annotation', 'annotations'],
  backups: ['server backup entry', 'server backup entries'],
  fullBackups: ['full backup', 'full backups'],
  trace: ['trace entry', 'trace entries'],
  settings: ['setting', 'settings'],
  outbox: ['unsynced change', 'unsynced changes'],
  importStaging: ['staged import row', 'staged import rows'],
  syncState: ['sync record', 'sync records'],
  billChanges: ['recorded bill change', 'recorded bill changes'],
  seenMarks: ['seen mark', 'seen marks'],
  apiKeys: ['API key', 'API keys'],
  versionTexts: ['fetched bill text', 'fetched bill texts'],
  billHistory: ['history entry', 'history entries'],
  members: ['member of a legislature', 'members of legislatures'],
};

export function tableCount(table: TableName, count: number): string {
  const [one, many] = tableWords[table];
  return plural(count, one, many);
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

export function reasonWords(reason: string): string {
  switch (reason) {
    case 'manual':
      return 'Made by you';
    case 'before-restore':
      return 'Made automatically before a restore';
    case 'cloud-password-reset':
      return 'Made automatically by sync before a cloud password reset';
    default:
      return reason;
  }
}

/** A list in words: "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

/** What a merge adds and changes, per kind ("2 tags and 1 annotation"), or null when nothing. */
export function mergeCounts(
  summary: Pick<FullBackupMergeSummary, 'kinds'>,
  which: 'added' | 'changed',
): string | null {
  const parts = (Object.entries(summary.kinds) as [TableName, MergeKindCount][])
    .filter(([, count]) => count[which] > 0)
    .map(([table, count]) => tableCount(table, count[which]));
  return parts.length === 0 ? null : listed(parts);
}

/** The sentence saying what Merge does to this device. */
export function mergeWords(summary: FullBackupMergeSummary): string {
  if (summary.empty) return 'Merge changes nothing: this device already holds all of it.';
  const added = mergeCounts(summary, 'added');
  const changed = mergeCounts(summary, 'changed');
  const bills = summary.billsAdded > 0 ? plural(summary.billsAdded, 'bill') : null;
  const adds = [added, bills].filter((part): part is string => part !== null);
  const clauses = [
    ...(adds.length > 0 ? [`adds ${listed(adds)}`] : []),
    ...(changed === null ? [] : [`takes the newer value for ${changed}`]),
  ];
  return `Merge ${listed(clauses)}; it deletes nothing, and where this device holds a newer value, that value stays.`;
}

/** The warning above Replace: what it deletes, and how much of that others made since. */
export function replaceWords(loss: FullBackupReplaceLoss): string {
  if (loss.removed === 0) {
    return 'Replace makes this device hold exactly what the backup holds; it deletes nothing here.';
  }
  const elsewhere =
    loss.madeElsewhereSince === 0
      ? ''
      : `, ${plural(loss.madeElsewhereSince, 'row')} of them made on your other devices after the backup`;
  return `Replace deletes ${plural(loss.removed, 'row')} this device holds that the backup lacks${elsewhere}, here and, once synced, on every device.`;
}
