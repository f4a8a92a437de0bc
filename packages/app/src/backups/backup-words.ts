import type { BackupCounts } from '@docket/core/backups';
import { plural } from '../ui/formatting.ts';

// Words the backup screens share.

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
