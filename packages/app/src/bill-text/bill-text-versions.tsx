import type { BillText } from '@docket/core/bills';
import type { Annotation, StoredBill, VersionText } from '@docket/core/store';
import { headingLines, placeAnnotation, placeOnOtherVersion } from '@docket/core/text';
import { IonButton } from '@ionic/react';
import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { annotationOnTextPath } from '../annotations/annotation-path.ts';
import { TextVersionsSection } from '../bill-details/bill-record-sections.tsx';
import { formatDateTime, plural } from '../ui/formatting.ts';
import { StructuredTextView, type TextViewHighlight } from './structured-text-view.tsx';
import { progressWords, useGetText } from './use-get-text.ts';
import './bill-text.css';

// Bill details' text versions: each version the source links gets "Get text", which keeps the
// text on this device (import-worker/version-text-download.ts); a text, the dataset's or fetched, is
// shown with its headings and can be annotated; with two or more, "Compare versions".

const VersionCompare = lazy(() =>
  import('./version-compare.tsx').then((module) => ({ default: module.VersionCompare })),
);

function GetText({
  billId,
  version,
  index,
  again,
}: {
  billId: string;
  version: BillText;
  index: number;
  /** This device has a copy: the button fetches it anew (the source may have corrected it). */
  again: boolean;
}) {
  const { state, run } = useGetText({ billId, index, url: version.url, docId: version.docId });
  const describedBy = useId();
  const label = state.kind === 'failed' ? 'Try again' : again ? 'Get text again' : 'Get text';
  return (
    <div className="bill-text-tools">
      <IonButton
        fill="outline"
        size="small"
        disabled={state.kind === 'busy'}
        // The version's name goes with the words: every version has this button.
        aria-label={`${label}: ${version.type}`}
        aria-describedby={describedBy}
        onClick={() => {
          void run();
        }}
      >
        {label}
      </IonButton>
      <p id={describedBy} className="bill-muted">
        {again
          ? 'Downloads this version from its source again and replaces the copy on this device.'
          : 'Downloads this version from its source and keeps it on this device.'}
      </p>
      <p role="status" className="bill-text-progress">
        {state.kind === 'busy'
          ? progressWords(state.progress)
          : state.kind === 'done'
            ? 'Text fetched.'
            : ''}
      </p>
      {state.kind === 'failed' && (
        <p role="alert" className="bill-text-error">
          {state.message}
        </p>
      )}
    </div>
  );
}

function CompareVersions({ texts }: { texts: readonly BillText[] }) {
  const [open, setOpen] = useState(false);
  const panel = useId();
  return (
    <div className="bill-text-compare">
      <IonButton
        fill="outline"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => {
          setOpen((was) => !was);
        }}
      >
        {open ? 'Close the comparison' : 'Compare versions'}
      </IonButton>
      <div id={panel}>
        {open && (
          <Suspense fallback={<p role="status">Loading the comparison…</p>}>
            <VersionCompare texts={texts} />
          </Suspense>
        )}
      </div>
    </div>
  );
}

const noHighlights: readonly TextViewHighlight[] = [];

/**
 * The highlights to draw on each version with text: those made on it, where they are now, and
 * those made on another version whose passage the re-import's anchoring finds in it.
 */
export function versionHighlights(
  bill: Pick<StoredBill, 'title' | 'summary'>,
  texts: readonly BillText[],
  annotations: readonly Annotation[],
): Map<number, TextViewHighlight[]> {
  const withTexts = { title: bill.title, summary: bill.summary, texts: [...texts] };
  const byVersion = new Map<number, TextViewHighlight[]>();
  texts.forEach((version, index) => {
    if (version.text === null) return;
    const target = `text:${index}`;
    const drawn: TextViewHighlight[] = [];
    for (const annotation of annotations) {
      const { id, color } = annotation;
      if (annotation.target === target) {
        const placed = placeAnnotation(withTexts, annotation);
        if (placed.kind === 'anchored') drawn.push({ id, color, carried: false, ...placed.range });
      } else {
        const range = placeOnOtherVersion(withTexts, annotation, target);
        if (range !== null) drawn.push({ id, color, carried: true, ...range });
      }
    }
    if (drawn.length > 0) byVersion.set(index, drawn);
  });
  return byVersion;
}

/** The text versions of `bill` (its texts with the fetched ones in place) with their tools. */
export function BillTextVersions({
  bill,
  texts,
  fetched,
  annotations,
}: {
  bill: StoredBill;
  /** The bill's texts, fetched copies in place (core's withFetchedTexts). */
  texts: readonly BillText[];
  fetched: readonly VersionText[] | undefined;
  /** The bill's annotations, drawn on the texts as highlights. */
  annotations: readonly Annotation[] | undefined;
}) {
  const highlights = useMemo(
    () => versionHighlights(bill, texts, annotations ?? []),
    [bill, texts, annotations],
  );
  const copies = useFetchedCopies(bill.texts, fetched);
  const withText = texts.filter((version) => version.text !== null).length;
  return (
    <TextVersionsSection
      texts={texts}
      extras={{
        tools: (version, index) => (
          <VersionTools
            billId={bill.id}
            version={version}
            index={index}
            copy={copies.get(index)}
            ownText={bill.texts[index]?.text ?? null}
            copiesRead={fetched !== undefined}
          />
        ),
        body: (version, index, labelledBy) => (
          <VersionBody
            version={version}
            copy={copies.get(index)}
            labelledBy={labelledBy}
            drawn={highlights.get(index) ?? noHighlights}
          />
        ),
        after: withText >= 2 && <CompareVersions texts={texts} />,
      }}
    />
  );
}

/**
 * The copies of the bill's versions fetched to this device, by version index; a copy whose
 * version's source link changed since (a re-import) is left out.
 */
function useFetchedCopies(
  billTexts: StoredBill['texts'],
  fetched: readonly VersionText[] | undefined,
): Map<number, VersionText> {
  return useMemo(
    () =>
      new Map(
        (fetched ?? [])
          .filter((copy) => billTexts[copy.index]?.url === copy.url)
          .map((copy) => [copy.index, copy]),
      ),
    [billTexts, fetched],
  );
}

/**
 * A version's tools: when its text was fetched, "Get text" (again, for a fetched copy) once the
 * copies are read, and the way to highlight a passage of a text.
 */
function VersionTools({
  billId,
  version,
  index,
  copy,
  ownText,
  copiesRead,
}: {
  billId: string;
  version: BillText;
  index: number;
  /** This device's fetched copy of the version, if any. */
  copy: VersionText | undefined;
  /** The version's text as the dataset has it (null when it has none). */
  ownText: string | null;
  /** Whether the fetched copies are read yet. */
  copiesRead: boolean;
}) {
  // The copy is the text shown only where the dataset has none of its own.
  const shownCopy = ownText === null ? copy : undefined;
  return (
    <>
      {shownCopy !== undefined && (
        <p className="bill-muted">
          Text fetched from the source on {formatDateTime(shownCopy.fetchedAt)}
          {shownCopy.format === 'pdf' ? ', read from its PDF' : ''}.
        </p>
      )}
      {version.url !== null && copiesRead && (version.text === null || shownCopy !== undefined) && (
        <GetText billId={billId} version={version} index={index} again={shownCopy !== undefined} />
      )}
      {version.text !== null && (
        <p>
          <Link to={annotationOnTextPath(billId, `text:${index}`)}>
            Highlight a passage<span className="visually-hidden"> of {version.type}</span>
          </Link>
        </p>
      )}
    </>
  );
}

/** A version's text with its headings and highlights, and how many highlights it shows. */
function VersionBody({
  version,
  copy,
  labelledBy,
  drawn,
}: {
  version: BillText;
  /** This device's fetched copy of the version, whose headings were found when it was read. */
  copy: VersionText | undefined;
  labelledBy: string;
  drawn: readonly TextViewHighlight[];
}) {
  return (
    <>
      {drawn.length > 0 && (
        <p className="bill-muted">
          {plural(drawn.length, 'highlight')} in this text, underlined
          {drawn.some((highlight) => highlight.carried)
            ? '; dashed where made on another version'
            : ''}
          .
        </p>
      )}
      <StructuredTextView
        text={version.text ?? ''}
        headings={copy?.headings ?? headingLines(version.text ?? '')}
        labelledBy={labelledBy}
        highlights={drawn}
      />
    </>
  );
}
