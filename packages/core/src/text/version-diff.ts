// "Compare versions": a word-level diff of two versions of a bill's text. The diff itself is
// jsdiff's (the `diff` package's diffWordsWithSpace), handed in by the caller so that the app
// loads it only when a comparison is opened; this file turns its parts into what is shown: runs
// of unchanged, added and removed text, and how many words each side changed.

/** A part as jsdiff gives it. */
export interface DiffPart {
  value: string;
  added?: boolean;
  removed?: boolean;
}

export type WordDiffer = (older: string, newer: string) => readonly DiffPart[];

export interface DiffRun {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

export interface VersionDiff {
  runs: DiffRun[];
  addedWords: number;
  removedWords: number;
}

const words = (text: string): number =>
  text.match(/[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu)?.length ?? 0;

/**
 * The runs from older to newer. Whitespace-only changes count as unchanged (a re-wrapped line is
 * not a change to the law), and neighbouring runs of one kind are joined.
 */
export function compareTexts(older: string, newer: string, diffWords: WordDiffer): VersionDiff {
  const runs: DiffRun[] = [];
  let addedWords = 0;
  let removedWords = 0;
  for (const part of diffWords(older, newer)) {
    let kind: DiffRun['kind'] =
      part.added === true ? 'added' : part.removed === true ? 'removed' : 'same';
    if (kind !== 'same' && part.value.trim() === '') {
      // A removed space shows nothing, an added one stands for it.
      if (kind === 'removed') continue;
      kind = 'same';
    }
    if (kind === 'added') addedWords += words(part.value);
    if (kind === 'removed') removedWords += words(part.value);
    const last = runs[runs.length - 1];
    if (last?.kind === kind) last.text += part.value;
    else runs.push({ kind, text: part.value });
  }
  return { runs, addedWords, removedWords };
}
