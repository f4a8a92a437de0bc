import type { BackupCounts } from '@docket/core/backups';

// Words the backup screens share.

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function formatWhen(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/** "3 bills, 2 tags, 1 annotation, …": what a backup holds, the empty kinds left out. */
export function describeCounts(counts: BackupCounts): string {
  const parts = [
    plural(counts.bills, 'bill'),
    plural(counts.tags, 'tag'),
    plural(counts.billTags, 'tagging', 'taggings'),
    plural(counts.positions, 'position'),
    plural(counts.decisions, 'triage decision'),
    plural(counts.annotations, 'annotation'),
    plural(counts.datasets, 'dataset'),
  ];
  return parts.filter((part) => !part.startsWith('0 ')).join(', ') || 'Nothing yet';
}

export const kindWords = {
  datasets: 'Datasets',
  tags: 'Tags',
  billTags: 'Tagged bills',
  positions: 'Positions',
  decisions: 'Triage decisions',
  annotations: 'Annotations',
} as const;
