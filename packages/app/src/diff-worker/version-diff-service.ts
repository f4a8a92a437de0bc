import { compareTexts, type VersionDiff } from '@docket/core/text';
import { diffWordsWithSpace } from 'diff';

// What the diff worker runs: jsdiff's word diff of two versions made core's runs of unchanged,
// added and removed text ("Compare versions"). A diff of two long bills can take seconds of CPU,
// which on the page would freeze scrolling and typing; in the worker it only delays the answer.

/** jsdiff gives up past this (undefined), rather than work on two unrelated texts for minutes. */
export const DIFF_TIMEOUT_MS = 5_000;

/** The diff from `older` to `newer`, or null when they differ too much to compare in time. */
export function diffVersions(older: string, newer: string): VersionDiff | null {
  const parts = diffWordsWithSpace(older, newer, { timeout: DIFF_TIMEOUT_MS });
  return parts === undefined ? null : compareTexts(older, newer, () => parts);
}

export interface VersionDiffApi {
  diff(older: string, newer: string): VersionDiff | null;
}

export const versionDiffApi: VersionDiffApi = { diff: diffVersions };
