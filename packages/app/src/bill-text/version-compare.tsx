import type { BillText } from '@docket/core/bills';
import { compareTexts, type VersionDiff } from '@docket/core/text';
import { diffWordsWithSpace } from 'diff';
import { useId, useMemo, useState } from 'react';
import { formatBillDate } from '../bills/bill-words.ts';
import { plural } from '../ui/formatting.ts';

// "Compare versions", loaded only when opened (with jsdiff): two versions chosen, the newer one
// shown with what it added and what it took out of the older marked. Marks are <ins> and <del>
// with words a screen reader says ("added", "removed") and an underline or a line through, so
// nothing depends on colour alone.

/** jsdiff gives up past this (undefined), rather than hold the page on two unrelated texts. */
const DIFF_TIMEOUT_MS = 5_000;

function diffOf(older: string, newer: string): VersionDiff | null {
  const parts = diffWordsWithSpace(older, newer, { timeout: DIFF_TIMEOUT_MS });
  return parts === undefined ? null : compareTexts(older, newer, () => parts);
}

const versionName = (version: BillText, index: number): string =>
  `${index + 1}. ${version.type}${version.date === null ? '' : ` (${formatBillDate(version.date)})`}`;

export function VersionCompare({ texts }: { texts: readonly BillText[] }) {
  const ids = useId();
  const withText = texts.flatMap((version, index) => (version.text === null ? [] : [index]));
  const [older, setOlder] = useState(withText[withText.length - 2] ?? 0);
  const [newer, setNewer] = useState(withText[withText.length - 1] ?? 0);
  const olderText = texts[older]?.text ?? '';
  const newerText = texts[newer]?.text ?? '';
  const diff = useMemo(() => diffOf(olderText, newerText), [olderText, newerText]);
  const olderName = texts[older] === undefined ? '' : versionName(texts[older], older);
  const newerName = texts[newer] === undefined ? '' : versionName(texts[newer], newer);

  const choice = (label: string, value: number, set: (index: number) => void) => (
    <div className="bill-text-choice">
      <label htmlFor={`${ids}-${label}`}>{label}</label>
      <select
        id={`${ids}-${label}`}
        value={value}
        onChange={(event) => {
          set(Number(event.currentTarget.value));
        }}
      >
        {withText.map((index) => {
          const version = texts[index];
          return version === undefined ? null : (
            <option key={index} value={index}>
              {versionName(version, index)}
            </option>
          );
        })}
      </select>
    </div>
  );

  return (
    <section className="bill-text-comparison" aria-labelledby={`${ids}-heading`}>
      <h3 id={`${ids}-heading`}>Compare versions</h3>
      <div className="bill-text-choices">
        {choice('From', older, setOlder)}
        {choice('To', newer, setNewer)}
      </div>
      {older === newer ? (
        <p className="bill-muted">Choose two different versions.</p>
      ) : diff === null ? (
        <p role="alert">
          These versions differ too much to compare word by word. Open each one under Text versions
          instead.
        </p>
      ) : (
        <>
          <p role="status" className="bill-text-diff-summary">
            {diff.addedWords === 0 && diff.removedWords === 0
              ? 'No words changed.'
              : `${plural(diff.addedWords, 'word')} added, ${plural(diff.removedWords, 'word')} removed.`}{' '}
            <span className="bill-muted">
              Added words are underlined, removed ones struck through.
            </span>
          </p>
          <div
            className="bill-text-diff"
            role="region"
            aria-label={`Changes from ${olderName} to ${newerName}`}
            tabIndex={0}
            dir="auto"
          >
            {diff.runs.map((run, index) =>
              run.kind === 'same' ? (
                <span key={index}>{run.text}</span>
              ) : run.kind === 'added' ? (
                <ins key={index}>
                  <span className="visually-hidden">[added: </span>
                  {run.text}
                  <span className="visually-hidden">]</span>
                </ins>
              ) : (
                <del key={index}>
                  <span className="visually-hidden">[removed: </span>
                  {run.text}
                  <span className="visually-hidden">]</span>
                </del>
              ),
            )}
          </div>
        </>
      )}
    </section>
  );
}
