import { withFetchedTexts } from '@docket/core/text';
import type { Annotation, StoredBill } from '@docket/core/store';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { AnnotatedText } from '../annotations/annotated-text.tsx';
import { AnnotationEditor } from '../annotations/annotation-editor.tsx';
import { annotationPath } from '../annotations/annotation-path.ts';
import { useAnnotationRouteParams } from '../annotations/annotation-route-params.ts';
import '../annotations/annotations.css';
import { HighlightSections } from '../annotations/highlight-sections.tsx';
import { NewAnnotationForm } from '../annotations/new-annotation-form.tsx';
import { TargetChooser } from '../annotations/target-chooser.tsx';
import {
  type AnnotationPlacements,
  useAnnotationPlacements,
} from '../annotations/use-annotation-placements.ts';
import { usePickedPassage } from '../annotations/use-picked-passage.ts';
import { useShownTarget } from '../annotations/use-shown-target.ts';
import { useBillAnnotations } from '../local-store/live-annotations.ts';
import { useVersionTexts } from '../local-store/live-version-texts.ts';
import { useStoredBill } from '../local-store/live-bills.ts';
import { useSpaceReadOnly } from '../local-store/space-role.ts';
import { billDetailsPath } from '../bills/bill-words.ts';
import '../ui/forms.css';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { NotesSpaceLine } from '../authors/notes-space-line.tsx';
import { useStatusToast } from '../toasts/status-toast.ts';

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

/** The bill with the texts this device fetched; undefined while loading, null when absent. */
function useBillWithTexts(billId: string | null): StoredBill | null | undefined {
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
  return fetched === undefined ? undefined : bill;
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
  const bill = useBillWithTexts(billId);
  const annotations = useBillAnnotations(billId);
  const toast = useStatusToast();
  const [deleted, setDeleted] = useState(false);

  if (billId === null) return <NoBillNamed />;
  if (bill === undefined || annotations === undefined) return <p>Loading the bill…</p>;
  if (bill === null) return <BillNotFound billId={billId} />;
  const annotation =
    annotationId === null ? null : annotations.find((row) => row.id === annotationId);
  if (annotation === undefined) {
    return <AnnotationNotFound bill={bill} annotationId={annotationId} deleted={deleted} />;
  }
  return (
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

function NoBillNamed() {
  return (
    <>
      <h1>No bill named</h1>
      <p>
        This link does not say which bill to annotate.{' '}
        <Link to={TRACKED_PATH}>Go to your tracked bills</Link>
      </p>
    </>
  );
}

function BillNotFound({ billId }: { readonly billId: string }) {
  return (
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
}

/** The highlight named by `id` is not on the bill: deleted here, or before the link was opened. */
function AnnotationNotFound({
  bill,
  annotationId,
  deleted,
}: {
  readonly bill: StoredBill;
  readonly annotationId: string | null;
  readonly deleted: boolean;
}) {
  return (
    <>
      <h1>{deleted ? 'Highlight deleted' : 'Annotation not found'}</h1>
      {!deleted && (
        <p className="annotation-wrap">
          This bill has no annotation {JSON.stringify((annotationId ?? '').slice(0, 120))}; it may
          have been deleted.
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
  // A workspace's viewer reads the highlights: the text is not one to select a new one in.
  const readOnly = useSpaceReadOnly();
  const shown = useShownTarget(bill, current?.target ?? initialTarget);
  const placements = useAnnotationPlacements(bill, annotations, shown.target, shown.text);
  const picked = usePickedPassage(bill, shown.target, shown.text, shown.choose);
  const picks = current === null && !readOnly;

  return (
    <>
      <WorkspaceHeading bill={bill} opened={current !== null} readOnly={readOnly} />
      <TargetChooser
        targets={shown.targets}
        target={shown.target}
        label={shown.label}
        anchoredCount={placements.anchoredCount}
        onChoose={(target) => {
          shown.choose(target);
          picked.clear();
        }}
      />
      <AnnotatedText
        text={shown.text}
        highlights={placements.highlights}
        label={`Text of the bill: ${shown.label}`}
        currentId={current?.id}
        onSelect={picks ? picked.pick : undefined}
        onConfirm={picks ? picked.toForm : undefined}
      />
      {current === null ? (
        <NewAnnotationForm
          formRef={picked.formRef}
          billId={bill.id}
          passage={picked.passage}
          currentText={shown.text}
          onRestorePassage={picked.restorePassage}
          onSaved={() => {
            picked.clear();
            onSaved();
          }}
        />
      ) : (
        <OpenedHighlight
          bill={bill}
          annotation={current}
          placements={placements}
          readOnly={readOnly}
          onSaved={onSaved}
          onDeleted={onDeleted}
        />
      )}
      <HighlightSections
        targets={shown.targets}
        inThisText={placements.inThisText}
        fromOtherVersions={placements.fromOtherVersions}
        orphans={placements.orphans}
        currentId={current?.id ?? null}
      />
    </>
  );
}

/** What the page is about: the highlight, a new one, or (for a viewer) the highlights of a bill. */
function WorkspaceHeading({
  bill,
  opened,
  readOnly,
}: {
  readonly bill: StoredBill;
  /** Whether a highlight is opened by `id`. */
  readonly opened: boolean;
  readonly readOnly: boolean;
}) {
  return (
    <>
      <h1>{opened ? 'Highlight' : readOnly ? 'Highlights' : 'New highlight'}</h1>
      <p className="annotation-bill annotation-wrap">
        On <Link to={billDetailsPath(bill.id)}>{bill.identifier}</Link>:{' '}
        <span dir="auto">{bill.title}</span>
      </p>
      <NotesSpaceLine />
    </>
  );
}

/** The highlight opened by `id`, and (for those who make them) the way to a new one. */
function OpenedHighlight({
  bill,
  annotation,
  placements,
  readOnly,
  onSaved,
  onDeleted,
}: {
  readonly bill: StoredBill;
  readonly annotation: Annotation;
  readonly placements: Pick<AnnotationPlacements, 'placed' | 'quoteOf'>;
  readonly readOnly: boolean;
  readonly onSaved: () => void;
  readonly onDeleted: () => void;
}) {
  const entry = placements.placed.find((placed) => placed.annotation.id === annotation.id);
  if (entry === undefined) return null;
  return (
    <>
      <AnnotationEditor
        annotation={annotation}
        quote={placements.quoteOf(entry)}
        orphan={entry.placement.kind === 'orphan'}
        onSaved={onSaved}
        onDeleted={onDeleted}
      />
      {!readOnly && (
        <p>
          <Link to={annotationPath(bill.id)}>New highlight on {bill.identifier}</Link>
        </p>
      )}
    </>
  );
}
