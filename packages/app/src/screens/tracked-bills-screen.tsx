import { IonContent } from '@ionic/react';
import { useSpaceReadOnly } from '../local-store/space-role.ts';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation } from 'react-router-dom';
import type { BillListQuery } from '@docket/core/lists';
import { TrackedCharts } from '../charts/tracked-charts.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { TagPickerModal } from '../tags/tag-picker-modal.tsx';
import { RemovedBillNotesList } from '../tracked/removed-bill-notes-list.tsx';
import { TrackedListPanel } from '../tracked/tracked-list-panel.tsx';
import { trackedCountText } from '../tracked/tracked-toolbar.tsx';
import { type BillList, useBillList } from '../tracked/use-bill-list.ts';
import { type ListPrint, useListPrint } from '../tracked/use-list-print.ts';
import { useListQuery } from '../tracked/use-list-query.ts';
import { useTrackedSelection } from '../tracked/use-tracked-selection.ts';
import { BillReportView } from '../printing/bill-report-view.tsx';
import { asksForWhatChanged, ChangedBillsNews } from '../changes/changed-bills-news.tsx';
import { WhatChanged } from '../changes/what-changed.tsx';
import '../tracked/tracked.css';
import { SkipLink, SkipToTabs } from '../layout/skip-links.tsx';

// The Tracked tab: tracked bills (or all of them) with search, filters and order, all kept in
// the URL so a link opens the same list. Search and filtering run in the search worker; this
// screen shows the answer, and writes only through core's commands (tagBills, decideBills, in
// tracked/use-tracked-selection.ts; the tag picker makes a new tag with createTag).

type TrackedView = 'bills' | 'changes';

/** Where "Skip to the list" lands: the list's heading, or the count when there is no list. */
function listHeading(): HTMLElement | null {
  const page = document.querySelector('.ion-page:not(.ion-page-hidden) .tracked-page');
  return (
    page?.querySelector<HTMLElement>('.tracked-list-heading') ??
    page?.querySelector<HTMLElement>('.tracked-count') ??
    null
  );
}

/** Bills or What changed; "N followed bills changed" (here or on Bills) opens What changed,
 *  each time it is followed. */
function useTrackedView(): [TrackedView, (view: TrackedView) => void] {
  const location = useLocation();
  const [view, setView] = useState<TrackedView>(() =>
    asksForWhatChanged(location.state) ? 'changes' : 'bills',
  );
  const [followedKey, setFollowedKey] = useState(location.key);
  if (followedKey !== location.key) {
    setFollowedKey(location.key);
    if (asksForWhatChanged(location.state)) setView('changes');
  }
  return [view, setView];
}

/** A chart bar leads to its filtered list: the list, below the charts, comes into view, and its
 *  count (a status, read out) takes the focus, so a person knows how many it lists. */
function useChartLanding(countRef: RefObject<HTMLParagraphElement | null>): void {
  const location = useLocation();
  const fromChart = (location.state as { fromChart?: unknown } | null)?.fromChart === true;
  useEffect(() => {
    if (!fromChart) return;
    countRef.current?.scrollIntoView({ block: 'start' });
    countRef.current?.focus({ preventScroll: true });
  }, [location.key, fromChart, countRef]);
}

/** The page's scroll element, which the virtual list scrolls with. */
function useScrollElement(contentRef: RefObject<HTMLIonContentElement | null>) {
  const [scrollElement, setScrollElement] = useState<HTMLElement | null>(null);
  useEffect(() => {
    contentRef.current
      ?.getScrollElement()
      .then(setScrollElement)
      .catch((error: unknown) => {
        console.error('[docket] The page does not scroll:', error);
      });
  }, [contentRef]);
  return scrollElement;
}

export function TrackedBillsScreen() {
  const [query, changeQuery] = useListQuery();
  const list = useBillList(query);
  const listPrint = useListPrint(list);
  const selection = useTrackedSelection(list.allIds);
  const readOnly = useSpaceReadOnly();
  const [view, setView] = useTrackedView();
  const countRef = useRef<HTMLParagraphElement>(null);
  useChartLanding(countRef);
  const contentRef = useRef<HTMLIonContentElement>(null);
  const scrollElement = useScrollElement(contentRef);
  const selectedCount = selection.selected.size;

  return (
    <>
      <PageHeader title="Tracked" />
      <IonContent ref={contentRef} className="ion-padding">
        <div className="page-body tracked-page">
          <h1>Tracked</h1>
          <SkipLink label="Skip to the list" target={listHeading} />
          <SkipToTabs />
          <ViewSwitch view={view} onChange={setView} />
          {view === 'bills' && <ChangedBillsNews />}
          {view === 'changes' && <WhatChanged />}
          {/* Hidden, not unmounted: the list keeps its place and its filters. */}
          <div hidden={view !== 'bills'}>
            {/* Folded: on a phone the search field and the first rows come first. */}
            <details className="tracked-charts">
              <summary>Charts</summary>
              <TrackedCharts />
            </details>
            <RemovedBillNotesList />
            <TrackedListPanel
              query={query}
              onChange={changeQuery}
              list={list}
              print={listPrint}
              selection={selection}
              readOnly={readOnly}
              countRef={countRef}
              scrollElement={scrollElement}
            />
          </div>
          <ListReport query={query} list={list} print={listPrint.state} />
        </div>
        <TagPickerModal
          isOpen={selection.choosing}
          title={selectedCount === 1 ? 'Tag 1 bill' : `Tag ${selectedCount.toLocaleString()} bills`}
          onPick={selection.tagSelected}
          onDismiss={selection.closeTagPicker}
        />
      </IonContent>
    </>
  );
}

/** Two toggle buttons, not Ionic's segment: every Ionic component the app uses lands in the
 *  first screen's script, and a segment with its gestures costs 8 KB there. */
function ViewSwitch({
  view,
  onChange,
}: {
  readonly view: TrackedView;
  readonly onChange: (view: TrackedView) => void;
}) {
  return (
    <div className="tracked-views" role="group" aria-label="Show">
      <button
        type="button"
        className="toggle-button"
        aria-pressed={view === 'bills'}
        onClick={() => {
          onChange('bills');
        }}
      >
        Bills
      </button>
      <button
        type="button"
        className="toggle-button"
        aria-pressed={view === 'changes'}
        onClick={() => {
          onChange('changes');
        }}
      >
        What changed
      </button>
    </div>
  );
}

/** On paper: every bill of the list once "Print" has read them, else a word on how to. */
function ListReport({
  query,
  list,
  print,
}: {
  readonly query: BillListQuery;
  readonly list: BillList;
  readonly print: ListPrint;
}) {
  if (print.phase !== 'ready') {
    return (
      <p className="print-only">
        This list shows only the bills on screen. To print every listed bill, use “Print” on the
        Tracked tab.
      </p>
    );
  }
  const countText = trackedCountText(query, list.total);
  return (
    <BillReportView
      title={query.all ? 'All bills' : 'Tracked'}
      caption={
        query.sponsor === null || list.sponsorName == null
          ? countText
          : `${countText} · Sponsored by ${list.sponsorName}`
      }
      entries={print.entries}
    />
  );
}
