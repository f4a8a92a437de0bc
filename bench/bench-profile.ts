import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The browser profile the benchmarks run in: a folder on disk, as a person's browser has, made
// fresh for each run of Vitest (its main process) and removed when the run ends.
//
// Without one, Playwright opens an off-the-record context whose IndexedDB lives in memory, and
// in Chromium 150 that in-memory store writes 7-15 times slower than the on-disk one (a probe,
// 2026-11-25: 5,000 rows of 4 KB with the bills' six indexes in one transaction took 11-24 s in
// memory against 1.5-1.7 s on disk), so every figure would measure an engine no user runs.

const profileDirectory = join(tmpdir(), `docket-bench-profile-${process.pid}`);

/** The profile folder, created empty the first time it is asked for in this process. */
export function benchProfileDirectory(): string {
  if (!created) {
    rmSync(profileDirectory, { recursive: true, force: true });
    mkdirSync(profileDirectory, { recursive: true });
    created = true;
  }
  return profileDirectory;
}
let created = false;

/** Removes the profile folder (the run's databases with it). */
export function removeBenchProfile(): void {
  rmSync(profileDirectory, { recursive: true, force: true });
}
