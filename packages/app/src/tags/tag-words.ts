import type { MergeTagsResult } from '@docket/core/commands';
import { plural } from '../ui/formatting.ts';

// What the tag screens say about a tag's bills, and the questions asked before a merge or a
// delete: each names the tags and the number of bills, so nothing changes unannounced.

export function billCountWord(count: number): string {
  return plural(count, 'bill');
}

/** Where the Tracked list shows the bills carrying a tag. */
export function trackedByTagPath(tagId: string): string {
  return `/tabs/tracked?tag=${encodeURIComponent(tagId)}`;
}

export function deleteQuestion(tagName: string, billCount: number): string {
  if (billCount === 0) return `Delete the tag "${tagName}"? It is on no bills.`;
  return `Delete the tag "${tagName}"? It is on ${billCountWord(billCount)}; it will be taken off ${billCount === 1 ? 'it' : 'all of them'}. The bills themselves stay.`;
}

export function deleteDone(tagName: string, billsTouched: number): string {
  return billsTouched === 0
    ? `Deleted the tag "${tagName}".`
    : `Deleted the tag "${tagName}" and took it off ${billCountWord(billsTouched)}.`;
}

export function mergeQuestion(sourceName: string, targetName: string, billCount: number): string {
  const moved =
    billCount === 0
      ? `"${sourceName}" is on no bills`
      : `${billCountWord(billCount)} tagged "${sourceName}" will be tagged "${targetName}"`;
  return `Merge "${sourceName}" into "${targetName}"? ${moved}, and "${sourceName}" will be deleted.`;
}

export function mergeDone(sourceName: string, targetName: string, result: MergeTagsResult): string {
  const already =
    result.alreadyTagged === 0 ? '' : ` (${billCountWord(result.alreadyTagged)} already had it)`;
  return `Merged "${sourceName}" into "${targetName}": ${billCountWord(result.billsTouched)} now tagged "${targetName}"${already}.`;
}
