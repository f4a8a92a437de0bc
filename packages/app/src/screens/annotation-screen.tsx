import {
  type AnnotationPlacement,
  annotationTargets,
  annotationTargetText,
  placeAnnotation,
  placeOnOtherVersion,
  targetVersion,
  withFetchedTexts,
} from '@docket/core/text';
import type { Annotation, StoredBill } from '@docket/core/store';
import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ColouredHighlight } from '../annotations/annotated-text.tsx';
import { AnnotatedText } from '../annotations/annotated-text.tsx';
import { AnnotationEditor } from '../annotations/annotation-editor.tsx';
import { focusChosenColour } from '../annotations/colour-choice.tsx';
import type { ListedAnnotation } from '../annotations/annotation-list.tsx';
import { AnnotationList } from '../annotations/annotation-list.tsx';
import { annotationPath } from '../annotations/annotation-path.ts';
import { useAnnotationRouteParams } from '../annotations/annotation-route-params.ts';
import '../annotations/annotations.css';
import type { DraftPassage, PickedPassage } from '../annotations/new-annotation-form.tsx';
import { NewAnnotationForm } from '../annotations/new-annotation-form.tsx';
import type { TextOffsets } from '../annotations/selection-offsets.ts';
import { useBillAnnotations } from '../local-store/live-annotations.ts';
import { useVersionTexts } from '../local-store/live-version-texts.ts';
import { useStoredBill } from '../local-store/live-bills.ts';
import { billDetailsPath } from '../bills/bill-words.ts';
import '../ui/forms.css';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { useStatusToast } from '../toasts/status-toast.ts';
import { plural } from '../ui/formatting.ts';

const TRACKED_PATH = '/tabs/tracked';

/** /annotation?bill=&id=: one highlight of a bill, or (without id) a new one on that bill. */
export function AnnotationScreen() {
  const { billId, annotationId, target } = useAnnotationRouteParams();
  return (
    <>
      <PageHeader
        title="Annotation"
        backHref={billId === null ? TRACKED_PATH : billDetailsPath(billId)}
      />
      <PageBody>
        <AnnotationPage
          // A different bill or annotation starts over: no selection or draft note carries over.
          key={`${billId ?? ''}\n${annotationId ?? ''}\n${target ?? ''}`}
          billId={billId}
          annotationId={annotationId}
          initialTarget={target}
        />
      </PageBody>
    </>
  );
}

function AnnotationPage({
  billId,
  annotationId,
  initialTarget,
}: {
  readonly billId: string | null;
  readonly annotationId: string | null;
  readonly initialTarget: string | null;
}) {
  const storedBill = useStoredBill(billId);
  const fetched = useVersionTexts(billId);
  // The versions this device fetched ("Get text") are texts to annotate like the dataset's.
  const bill = useMemo(
    () =>
      storedBill == null || fetched === undefined
        ? storedBill
        : withFetchedTexts(storedBill, fetched),
    [storedBill, fetched],
  );
  const annotations = useBillAnnotations(billId);
  const toast = useStatusToast();
  const [deleted, setDeleted] = useState(false);

  let content;
  if (billId === null) {
    content = (
      <>
        <h1>No bill named</h1>
        <p>
          This link does not say which bill to annotate.{' '}
          <Link to={TRACKED_PATH}>Go to your tracked bills</Link>
        </p>
      </>
    );
  } else if (bill === undefined || annotations === undefined || fetched === undefined) {
    content = <p>Loading the bill…</p>;
  } else if (bill === null) {
    content = (
      <>
        <h1>Bill not found</h1>
        <p className="annotation-wrap">
          There is no bill {JSON.stringify(billId.slice(0, 200))} on this device; it may not be
          imported yet, or its dataset was removed.
        </p>
        <p>
          <Link to={TRACKED_PATH}>Go to your tracked bills</Link>
        </p>
      </>
    );
  } else {
    const annotation =
      annotationId === null ? null : annotations.find((row) => row.id === annotationId);
    if (annotation === undefined) {
      content = (
        <>
          <h1>{deleted ? 'Highlight deleted' : 'Annotation not found'}</h1>
          {!deleted && (
            <p className="annotation-wrap">
              This bill has no annotation {JSON.stringify((annotationId ?? '').slice(0, 120))}; it
              may have been deleted.
            </p>
          )}
          <ul className="annotation-links">
            <li>
              <Link to={billDetailsPath(bill.id)}>Back to {bill.identifier}</Link>
            </li>
            <li>
              <Link to={annotationPath(bill.id)}>New highlight on {bill.identifier}</Link>
            </li>
          </ul>
        </>
      );
    } else {
      content = (
        <AnnotationWorkspace
          bill={bill}
          annotations={annotations}
          current={annotation}
          initialTarget={initialTarget}
          onSaved={() => {
            toast.done('Highlight saved.');
          }}
          onDeleted={() => {
            setDeleted(true);
            toast.done('Highlight deleted.');
          }}
        />
      );
    }
  }

  return content;
}

interface Placed {
  readonly annotation: Annotation;
  readonly placement: AnnotationPlacement;
}

function AnnotationWorkspace({
  bill,
  annotations,
  current,
  initialTarget,
  onSaved,
  onDeleted,
}: {
  readonly bill: StoredBill;
  readonly annotations: readonly Annotation[];
  /** The annotation opened by `id`, or null to make a new one. */
  readonly current: Annotation | null;
  readonly initialTarget: string | null;
  readonly onSaved: () => void;
  readonly onDeleted: () => void;
}) {
  const ids = useId();
  const targets = useMemo(() => annotationTargets(bill), [bill]);
  const [chosenTarget, setChosenTarget] = useState<string>(
    () =>
      targets.find((option) => option.target === (current?.target ?? initialTarget))?.target ??
      targets[0]?.target ??
      'title',
  );
  // A re-import may take away the version on screen; fall back to the first text there is.
  const target = targets.some((option) => option.target === chosenTarget)
    ? chosenTarget
    : (targets[0]?.target ?? 'title');
  const targetLabel = targets.find((option) => option.target === target)?.label ?? 'Title';
  const text = annotationTargetText(bill, target) ?? '';

  const placed: Placed[] = useMemo(
    () =>
      annotations.map((annotation) => ({
        annotation,
        placement: placeAnnotation(bill, annotation),
      })),
    [bill, annotations],
  );
  const quoteOf = (entry: Placed): string => {
    if (entry.placement.kind === 'orphan') return entry.placement.quote;
    const now = annotationTargetText(bill, entry.annotation.target) ?? '';
    return now.slice(entry.placement.range.start, entry.placement.range.end);
  };
  // Highlights made on another version of the bill, found in this one (a new version keeps most
  // of the words of the one before): drawn here too, and listed apart.
  const carried = useMemo(
    () =>
      targetVersion(target) === null
        ? []
        : annotations.flatMap((annotation) => {
            const range = placeOnOtherVersion(bill, annotation, target);
            return range === null ? [] : [{ annotation, range }];
          }),
    [annotations, bill, target],
  );
  const highlights: ColouredHighlight[] = useMemo(
    () => [
      ...carried.map(({ annotation, range }) => ({
        id: annotation.id,
        color: annotation.color,
        ...range,
      })),
      ...placed.flatMap(({ annotation, placement }) =>
        placement.kind === 'anchored' && annotation.target === target
          ? [{ id: annotation.id, color: annotation.color, ...placement.range }]
          : [],
      ),
    ],
    [placed, carried, target],
  );
  const fromOtherVersions: ListedAnnotation[] = carried.map(({ annotation, range }) => ({
    annotation,
    quote: text.slice(range.start, range.end),
  }));
  const versionLabel = (annotationTarget: string): string =>
    targets.find((option) => option.target === annotationTarget)?.label ?? 'another version';
  const inThisText: ListedAnnotation[] = placed
    .filter((entry) => entry.placement.kind === 'anchored' && entry.annotation.target === target)
    .map((entry) => ({ annotation: entry.annotation, quote: quoteOf(entry) }));
  const orphans: ListedAnnotation[] = placed
    .filter((entry) => entry.placement.kind === 'orphan')
    .map((entry) => ({ annotation: entry.annotation, quote: quoteOf(entry) }));
  const anchoredCount = (option: string) =>
    placed.filter(
      (entry) => entry.placement.kind === 'anchored' && entry.annotation.target === option,
    ).length;

  const [passage, setPassage] = useState<PickedPassage | null>(null);
  const newForm = useRef<HTMLFormElement>(null);
  const toForm = useCallback(() => {
    focusChosenColour(newForm.current);
  }, []);
  const pick = useCallback(
    (offsets: TextOffsets) => {
      setPassage({ ...offsets, target, text });
    },
    [target, text],
  );
  const restorePassage = useCallback(
    (drafted: DraftPassage) => {
      const then = annotationTargetText(bill, drafted.target);
      // Only where the text still says what was selected: a re-import may have moved it.
      if (then === null) return;
      if (then.slice(drafted.start, drafted.end) !== drafted.quote || drafted.quote === '') return;
      setChosenTarget(drafted.target);
      setPassage({ start: drafted.start, end: drafted.end, target: drafted.target, text: then });
    },
    [bill],
  );
  const currentEntry =
    current === null ? undefined : placed.find((entry) => entry.annotation.id === current.id);

  return (
    <>
      <h1>{current === null ? 'New highlight' : 'Highlight'}</h1>
      <p className="annotation-bill annotation-wrap">
        On <Link to={billDetailsPath(bill.id)}>{bill.identifier}</Link>:{' '}
        <span dir="auto">{bill.title}</span>
      </p>

      {targets.length > 1 ? (
        <div className="annotation-target">
          <label htmlFor={`${ids}-target`}>Text shown</label>
          <select
            id={`${ids}-target`}
            value={target}
            onChange={(event) => {
              setChosenTarget(event.currentTarget.value);
              setPassage(null);
            }}
          >
            {targets.map((option) => {
              const count = anchoredCount(option.target);
              return (
                <option key={option.target} value={option.target}>
                  {option.label}
                  {count === 0 ? '' : ` (${plural(count, 'highlight')})`}
                </option>
              );
            })}
          </select>
        </div>
      ) : (
        <p className="annotation-target">Text shown: {targetLabel}</p>
      )}

      <AnnotatedText
        text={text}
        highlights={highlights}
        label={`Text of the bill: ${targetLabel}`}
        currentId={current?.id}
        onSelect={current === null ? pick : undefined}
        onConfirm={current === null ? toForm : undefined}
      />

      {current === null ? (
        <NewAnnotationForm
          formRef={newForm}
          billId={bill.id}
          passage={passage !== null && passage.target === target ? passage : null}
          currentText={text}
          onRestorePassage={restorePassage}
          onSaved={() => {
            setPassage(null);
            onSaved();
          }}
        />
      ) : (
        currentEntry !== undefined && (
          <>
            <AnnotationEditor
              annotation={current}
              quote={quoteOf(currentEntry)}
              orphan={currentEntry.placement.kind === 'orphan'}
              onSaved={onSaved}
              onDeleted={onDeleted}
            />
            <p>
              <Link to={annotationPath(bill.id)}>New highlight on {bill.identifier}</Link>
            </p>
          </>
        )
      )}

      <section aria-labelledby={`${ids}-here`}>
        <h2 id={`${ids}-here`}>Highlights in this text</h2>
        {inThisText.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <AnnotationList
            label="Highlights in this text"
            items={inThisText}
            currentId={current?.id ?? null}
          />
        )}
      </section>

      {fromOtherVersions.length > 0 && (
        <section aria-labelledby={`${ids}-carried`}>
          <h2 id={`${ids}-carried`}>Highlights from other versions</h2>
          <p>
            Made on{' '}
            {[...new Set(carried.map((entry) => versionLabel(entry.annotation.target)))].join(', ')}{' '}
            and found in this version&apos;s text.
          </p>
          <AnnotationList
            label="Highlights from other versions"
            items={fromOtherVersions}
            currentId={current?.id ?? null}
          />
        </section>
      )}

      {orphans.length > 0 && (
        <section aria-labelledby={`${ids}-orphans`}>
          <h2 id={`${ids}-orphans`}>Orphaned annotations</h2>
          <p>
            Their passages are no longer in the bill&apos;s text after a new import. Each is kept
            with the quote it was made on; open one to edit or delete it.
          </p>
          <AnnotationList
            label="Orphaned annotations"
            items={orphans}
            currentId={current?.id ?? null}
          />
        </section>
      )}
    </>
  );
}
