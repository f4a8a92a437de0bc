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
