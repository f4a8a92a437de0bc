import type { BillText } from '@docket/core/bills';
import type { VersionDiff } from '@docket/core/text';
import { useEffect, useId, useState } from 'react';
import { versionDiffs } from '../diff-worker/version-diff-client.ts';
import { formatBillDate } from '../bills/bill-words.ts';
import { plural } from '../ui/formatting.ts';

// "Compare versions", loaded only when opened: two versions chosen, the newer one shown with what
// it added and what it took out of the older marked. jsdiff runs in the diff worker
// (diff-worker/), so a long bill's diff never holds the page. Marks are <ins> and <del>
// with words a screen reader says ("added", "removed") and an underline or a line through, so
// nothing depends on colour alone.

/** The diff of two texts from the worker: 'busy' until it answers for these two. */
function useVersionDiff(older: string, newer: string): VersionDiff | null | 'busy' | 'failed' {
  const [answer, setAnswer] = useState<{
    older: string;
    newer: string;
    diff: VersionDiff | null | 'failed';
  } | null>(null);
  useEffect(() => {
    let current = true;
    versionDiffs.diff(older, newer).then(
      (diff) => {
        if (current && diff !== 'stale') setAnswer({ older, newer, diff });
      },
      (error: unknown) => {
        console.error('[docket] The comparison failed:', error);
        if (current) setAnswer({ older, newer, diff: 'failed' });
      },
    );
    return () => {
      current = false;
    };
  }, [older, newer]);
  return answer !== null && answer.older === older && answer.newer === newer ? answer.diff : 'busy';
}

const versionName = (version: BillText, index: number): string =>
  `${index + 1}. ${version.type}${version.date === null ? '' : ` (${formatBillDate(version.date)})`}`;

/** "Compare versions": a "From" and a "To" version, chosen among those with text, and their diff. */
export function VersionCompare({ texts }: { texts: readonly BillText[] }) {
  const ids = useId();
  const withText = texts.flatMap((version, index) => (version.text === null ? [] : [index]));
  const [older, setOlder] = useState(withText[withText.length - 2] ?? 0);
  const [newer, setNewer] = useState(withText[withText.length - 1] ?? 0);
  const olderText = texts[older]?.text ?? '';
  const newerText = texts[newer]?.text ?? '';
  const diff = useVersionDiff(olderText, newerText);
  const olderName = texts[older] === undefined ? '' : versionName(texts[older], older);
  const newerName = texts[newer] === undefined ? '' : versionName(texts[newer], newer);

  return (
    <section className="bill-text-comparison" aria-labelledby={`${ids}-heading`}>
      <h3 id={`${ids}-heading`}>Compare versions</h3>
      <div className="bill-text-choices">
        <VersionChoice
          id={`${ids}-From`}
          label="From"
          value={older}
          onChange={setOlder}
          texts={texts}
          withText={withText}
        />
        <VersionChoice
          id={`${ids}-To`}
          label="To"
          value={newer}
          onChange={setNewer}
          texts={texts}
          withText={withText}
        />
      </div>
      {older === newer ? (
        <p className="bill-muted">Choose two different versions.</p>
      ) : diff === 'busy' ? (
        <p role="status">Comparing the versions…</p>
      ) : diff === 'failed' ? (
        <p role="alert">The versions could not be compared. Close the comparison and try again.</p>
      ) : diff === null ? (
        <p role="alert">
          These versions differ too much to compare word by word. Open each one under Text versions
          instead.
        </p>
      ) : (
        <DiffShown diff={diff} label={`Changes from ${olderName} to ${newerName}`} />
      )}
    </section>
  );
}

/** One of the two versions compared: a labelled select of the versions with text. */
function VersionChoice({
  id,
  label,
  value,
  onChange,
  texts,
  withText,
}: {
  readonly id: string;
  readonly label: string;
  /** The index of the version chosen. */
  readonly value: number;
  readonly onChange: (index: number) => void;
  readonly texts: readonly BillText[];
  /** The indexes of the versions with text, the ones offered. */
  readonly withText: readonly number[];
}) {
  return (
    <div className="bill-text-choice">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          onChange(Number(event.currentTarget.value));
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
}

/**
 * The diff's count of words added and removed, and the newer text with the older's changes
 * marked: <ins> and <del> whose words a screen reader says too.
 */
function DiffShown({ diff, label }: { readonly diff: VersionDiff; readonly label: string }) {
  return (
    <>
      <p role="status" className="bill-text-diff-summary">
        {diff.addedWords === 0 && diff.removedWords === 0
          ? 'No words changed.'
          : `${plural(diff.addedWords, 'word')} added, ${plural(diff.removedWords, 'word')} removed.`}{' '}
        <span className="bill-muted">Added words are underlined, removed ones struck through.</span>
      </p>
      <div className="bill-text-diff" role="region" aria-label={label} tabIndex={0} dir="auto">
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
  );
}
