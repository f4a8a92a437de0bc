import type { DeviceDataSummary } from '@docket/core/device';
import { plural } from '../ui/formatting.ts';

/** "12 bills, 2 datasets and 1 tag": what the device holds, the kinds it has any of. */
export function deviceDataWords(summary: DeviceDataSummary): string {
  const parts = [
    summary.bills > 0 ? plural(summary.bills, 'bill') : null,
    summary.datasets > 0 ? plural(summary.datasets, 'dataset') : null,
    summary.tags > 0 ? plural(summary.tags, 'tag') : null,
    summary.positions > 0 ? plural(summary.positions, 'position') : null,
    summary.decisions > 0 ? plural(summary.decisions, 'triage decision') : null,
    summary.annotations > 0 ? plural(summary.annotations, 'annotation') : null,
    summary.fullBackups > 0 ? plural(summary.fullBackups, 'full backup') : null,
  ].filter((part) => part !== null);
  if (parts.length === 0) {
    return summary.unsynced > 0 ? plural(summary.unsynced, 'unsynced change') : 'nothing';
  }
  if (parts.length === 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1] ?? ''}`;
}
