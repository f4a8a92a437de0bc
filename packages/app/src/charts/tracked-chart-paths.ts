import type { BillStatus } from '@docket/core/bills';

// Where a bar of the Tracked tab's charts leads: the tracked list filtered to the bills the bar
// counts. The Tracked tab reads these query parameters; a week is its Monday, YYYY-MM-DD, and
// holds the bills with an action dated that Monday to Sunday (core's billActedInWeek).

export function trackedByStatusPath(status: BillStatus): string {
  return `/tabs/tracked?status=${encodeURIComponent(status)}`;
}

export function trackedByWeekPath(weekStart: string): string {
  return `/tabs/tracked?week=${encodeURIComponent(weekStart)}`;
}
