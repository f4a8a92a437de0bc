import { statusWord } from '@docket/core/bills';
import { IonButton, IonContent } from '@ionic/react';
import { useSpaceReadOnly } from '../local-store/space-role.ts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import {
  BillCommandError,
  dismissBill,
  laterBill,
  tagBills,
  trackBill,
} from '@docket/core/commands';
import {
  type BillListQuery,
  billListSearch,
  defaultBillListQuery,
  hasBillListFilters,
  parseBillListQuery,
} from '@docket/core/lists';
import type { Tag } from '@docket/core/store';
import { editCommandContext } from '../bills/bill-command-services.ts';
import { formatBillDate } from '../bills/bill-words.ts';
import { TrackedCharts } from '../charts/tracked-charts.tsx';
import { useDatasets } from '../local-store/live-datasets.ts';
import { useTags } from '../local-store/live-tags.ts';
import { PageHeader } from '../layout/page-header.tsx';
import { TagPickerModal } from '../tags/tag-picker-modal.tsx';
import { TrackedBillList } from '../tracked/tracked-bill-list.tsx';
import { RemovedBillNotesList } from '../tracked/removed-bill-notes-list.tsx';
import { ShareList } from '../tracked/share-list.tsx';
import { decisionListWords, TrackedFilters } from '../tracked/tracked-filters.tsx';
import { useBillList } from '../tracked/use-bill-list.ts';
import { useListPrint } from '../tracked/use-list-print.ts';
import { BillReportView } from '../printing/bill-report-view.tsx';
import { asksForWhatChanged, ChangedBillsNews } from '../changes/changed-bills-news.tsx';
import { WhatChanged } from '../changes/what-changed.tsx';
import '../tracked/tracked.css';
import { plural } from '../ui/formatting.ts';
import { IonProgressBar } from '../ui/ionic/ion-progress-bar.ts';
import { SkipLink, SkipToTabs } from '../layout/skip-links.tsx';

// The Tracked tab: tracked bills (or all of them) with search, filters and order, all kept in
// the URL so a link opens the same list. Search and filtering run in the search worker; this
// screen shows the answer, and writes only through core's commands (tagBills, trackBill; the
// tag picker makes a new tag with createTag).

const TRACKED_PATH = '/tabs/tracked';

const bills = (count: number) => plural(count, 'bill');

/** "Clear filters": the search and filters go; which bills, which list and the order stay. */
function withoutFilters(query: BillListQuery): BillListQuery {
  return { ...defaultBillListQuery, all: query.all, decision: query.decision, sort: query.sort };
}

function commandMessage(error: unknown): string {
  return error instanceof BillCommandError ? error.message : 'That did not work. Try again.';
}

/** The query in the URL while this tab is the one shown; the last one while another tab is. */
function useListQuery(): [BillListQuery, (change: Partial<BillListQuery>) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const [lastSearch, setLastSearch] = useState(location.search);
  const shown = location.pathname === TRACKED_PATH;
  if (shown && location.search !== lastSearch) setLastSearch(location.search);
  const search = shown ? location.search : lastSearch;
  const query = useMemo(() => parseBillListQuery(search), [search]);
  const change = useCallback(
    (partial: Partial<BillListQuery>) => {
      const next = billListSearch({ ...query, ...partial });
      navigate(
        { pathname: TRACKED_PATH, search: next === '' ? '' : `?${next}` },
        { replace: true },
      );
    },
    [query, navigate],
  );
  return [query, change];
}

/** Where "Skip to the list" lands: the list's heading, or the count when there is no list. */
function listHeading(): HTMLElement | null {
  const page = document.querySelector('.ion-page:not(.ion-page-hidden) .tracked-page');
  return (
    page?.querySelector<HTMLElement>('.tracked-list-heading') ??
    page?.querySelector<HTMLElement>('.tracked-count') ??
    null
  );
}

export function TrackedBillsScreen() {
  const [query, changeQuery] = useListQuery();
  const list = useBillList(query);
  const listPrint = useListPrint(list);
  const tags = useTags();
  const datasets = useDatasets();
  const tagsById = useMemo(() => new Map((tags ?? []).map((tag) => [tag.id, tag])), [tags]);

  // A chart bar leads to its filtered list: the list, below the charts, comes into view, and its
  // count (a status, read out) takes the focus, so a person knows how many it lists.
  const location = useLocation();
  const countRef = useRef<HTMLParagraphElement>(null);
  const fromChart = (location.state as { fromChart?: unknown } | null)?.fromChart === true;
  useEffect(() => {
    if (!fromChart) return;
    countRef.current?.scrollIntoView({ block: 'start' });
    countRef.current?.focus({ preventScroll: true });
  }, [location.key, fromChart]);

  const contentRef = useRef<HTMLIonContentElement>(null);
  const [scrollElement, setScrollElement] = useState<HTMLElement | null>(null);
  useEffect(() => {
    contentRef.current
      ?.getScrollElement()
      .then(setScrollElement)
      .catch((error: unknown) => {
        console.error('[docket] The page does not scroll:', error);
      });
  }, []);

  const [selecting, setSelecting] = useState(false);
  const readOnly = useSpaceReadOnly();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [choosing, setChoosing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [view, setView] = useState<'bills' | 'changes'>(() =>
    asksForWhatChanged(location.state) ? 'changes' : 'bills',
  );
  // "N followed bills changed" (here or on Bills) opens What changed: each time it is followed.
  const [followedKey, setFollowedKey] = useState(location.key);
  if (followedKey !== location.key) {
    setFollowedKey(location.key);
    if (asksForWhatChanged(location.state)) setView('changes');
  }

  const toggle = useCallback((billId: string, on: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(billId);
      else next.delete(billId);
      return next;
    });
  }, []);

  const selectAll = async () => {
    const ids = await list.allIds();
    setSelected(new Set(ids));
    setAnnouncement(`Selected ${bills(ids.length)}`);
  };

  /** The picker shows what this throws and stays open; it closes once the bills are tagged. */
  const tagSelected = async (tag: Tag) => {
    const ids = [...selected];
    setBusy(true);
    try {
      await tagBills(await editCommandContext(), ids, tag.id);
      setChoosing(false);
      setAnnouncement(`Tagged ${bills(ids.length)} with ${tag.name}`);
    } finally {
      setBusy(false);
    }
  };

  /** Moves the selected bills to a triage list: Tracked, Later or Dismissed. */
  const decideSelected = async (decision: 'track' | 'later' | 'dismiss') => {
    const ids = [...selected];
    const decide = { track: trackBill, later: laterBill, dismiss: dismissBill }[decision];
    setBusy(true);
    try {
      const context = await editCommandContext();
      for (const id of ids) await decide(context, id);
      setAnnouncement(
        decision === 'track'
          ? `Tracked ${bills(ids.length)}`
          : `Moved ${bills(ids.length)} to ${decisionListWords[decision]}`,
      );
    } catch (error) {
      setAnnouncement(commandMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const status = list.status;
  const total = list.total;
  const filtered = hasBillListFilters(query);
  const countText =
    total === undefined
      ? 'Loading bills…'
      : [
          bills(total),
          ...(query.decision === null ? [] : [decisionListWords[query.decision]]),
          ...(query.status === null ? [] : [statusWord(query.status)]),
        ].join(' · ');

  return (
    <>
      <PageHeader title="Tracked" />
      <IonContent ref={contentRef} className="ion-padding">
        <div className="page-body tracked-page">
          <h1>Tracked</h1>
          <SkipLink label="Skip to the list" target={listHeading} />
          <SkipToTabs />
          {/* Two toggle buttons, not Ionic's segment: every Ionic component the app uses lands in
              the first screen's script, and a segment with its gestures costs 8 KB there. */}
          <div className="tracked-views" role="group" aria-label="Show">
            <button
              type="button"
              className="toggle-button"
              aria-pressed={view === 'bills'}
              onClick={() => {
                setView('bills');
              }}
            >
              Bills
            </button>
            <button
              type="button"
              className="toggle-button"
              aria-pressed={view === 'changes'}
              onClick={() => {
                setView('changes');
              }}
            >
              What changed
            </button>
          </div>
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
            <TrackedFilters
              query={query}
              tags={tags ?? []}
              datasets={datasets ?? []}
              jurisdictions={list.jurisdictions}
              sessions={list.sessions}
              decisionCounts={list.decisionCounts}
              sponsorName={list.sponsorName}
              onChange={changeQuery}
            />
            {query.week !== null && (
              <p className="tracked-week">
                Bills with an action in the week of {formatBillDate(query.week)}
              </p>
            )}
            {status?.indexing === true && (
              <div className="tracked-indexing">
                <p role="status">
                  Indexing… {status.indexed.toLocaleString()}
                  {status.total === null ? '' : ` of ${bills(status.total)}`}
                </p>
                <IonProgressBar
                  aria-label="Indexing progress"
                  value={status.total ? status.indexed / status.total : 0}
                />
              </div>
            )}
            <div className="tracked-toolbar">
              <p role="status" className="tracked-count" ref={countRef} tabIndex={-1}>
                {countText}
              </p>
              {total !== undefined && total > 0 && (
                <Link to={`/export?${billListSearch(query)}`}>Export these bills</Link>
              )}
              {total !== undefined && total > 0 && (
                <IonButton
                  fill="outline"
                  size="small"
                  disabled={listPrint.state.phase === 'preparing'}
                  onClick={listPrint.print}
                >
                  Print
                </IonButton>
              )}
              {total !== undefined && total > 0 && (
                <ShareList
                  query={query}
                  total={total}
                  allIds={list.allIds}
                  tags={tags ?? []}
                  sponsorName={list.sponsorName}
                />
              )}
              {filtered && total !== 0 && (
                <IonButton
                  fill="clear"
                  size="small"
                  onClick={() => {
                    changeQuery(withoutFilters(query));
                  }}
                >
                  Clear filters
                </IonButton>
              )}
              {/* Selecting is for tagging and deciding, which a workspace's viewer does not do. */}
              {!readOnly && (
                <IonButton
                  fill={selecting ? 'solid' : 'outline'}
                  size="small"
                  aria-pressed={selecting}
                  onClick={() => {
                    setSelecting(!selecting);
                    setSelected(new Set());
                  }}
                >
                  Select
                </IonButton>
              )}
            </div>
            {selecting && !readOnly && (
              <div className="tracked-bulk" role="group" aria-label="Selected bills">
                <p>{bills(selected.size)} selected</p>
                <IonButton
                  size="small"
                  fill="outline"
                  disabled={total === 0}
                  onClick={() => {
                    selectAll().catch((error: unknown) => {
                      setAnnouncement(commandMessage(error));
                    });
                  }}
                >
                  Select all
                </IonButton>
                <IonButton
                  size="small"
                  disabled={selected.size === 0 || busy}
                  onClick={() => {
                    setChoosing(true);
                  }}
                >
                  Tag selected
                </IonButton>
                {(query.all || (query.decision !== null && query.decision !== 'track')) && (
                  <IonButton
                    size="small"
                    fill="outline"
                    disabled={selected.size === 0 || busy}
                    onClick={() => {
                      decideSelected('track').catch(() => undefined);
                    }}
                  >
                    Track selected
                  </IonButton>
                )}
                {/* Set aside from any list but their own: Later or Dismissed, as on the deck. */}
                {(['later', 'dismiss'] as const)
                  .filter((decision) => query.decision !== decision)
                  .map((decision) => (
                    <IonButton
                      key={decision}
                      size="small"
                      fill="outline"
                      disabled={selected.size === 0 || busy}
                      onClick={() => {
                        decideSelected(decision).catch(() => undefined);
                      }}
                    >
                      {decision === 'later' ? 'Later selected' : 'Dismiss selected'}
                    </IonButton>
                  ))}
              </div>
            )}
            <p className="visually-hidden" role="status" aria-live="polite">
              {announcement}
            </p>
            {listPrint.state.phase === 'preparing' && (
              <p role="status">Preparing {bills(total ?? 0)} for printing…</p>
            )}
            {listPrint.state.phase === 'failed' && (
              <p className="field-error" role="alert">
                {listPrint.state.message}
              </p>
            )}
            {list.error !== null && (
              <p className="field-error" role="alert">
                {list.error}
              </p>
            )}
            {total === 0 ? (
              <EmptyList query={query} filtered={filtered} onClear={changeQuery} />
            ) : total === undefined ? null : (
              <>
                {/* A heading before the list, for the screen reader's "next heading" and the skip
                    link; its count is said by the status above. */}
                <h2 className="visually-hidden tracked-list-heading" tabIndex={-1}>
                  Bills listed
                </h2>
                <TrackedBillList
                  list={list}
                  total={total}
                  scrollElement={scrollElement}
                  tagsById={tagsById}
                  selecting={selecting}
                  selected={selected}
                  onToggle={toggle}
                />
              </>
            )}
          </div>
          {listPrint.state.phase === 'ready' ? (
            <BillReportView
              title={query.all ? 'All bills' : 'Tracked'}
              caption={
                query.sponsor === null || list.sponsorName == null
                  ? countText
                  : `${countText} · Sponsored by ${list.sponsorName}`
              }
              entries={listPrint.state.entries}
            />
          ) : (
            <p className="print-only">
              This list shows only the bills on screen. To print every listed bill, use “Print” on
              the Tracked tab.
            </p>
          )}
        </div>
        <TagPickerModal
          isOpen={choosing}
          title={selected.size === 1 ? 'Tag 1 bill' : `Tag ${selected.size.toLocaleString()} bills`}
          onPick={tagSelected}
          onDismiss={() => {
            setChoosing(false);
          }}
        />
      </IonContent>
    </>
  );
}

function EmptyList({
  query,
  filtered,
  onClear,
}: {
  readonly query: BillListQuery;
  readonly filtered: boolean;
  readonly onClear: (change: Partial<BillListQuery>) => void;
}) {
  if (filtered) {
    return (
      <div className="tracked-empty">
        <h2>Nothing matches</h2>
        <p>No bill matches this search and these filters.</p>
        <IonButton
          onClick={() => {
            onClear(withoutFilters(query));
          }}
        >
          Clear filters
        </IonButton>
      </div>
    );
  }
  if (query.decision !== null && query.decision !== 'track') {
    return (
      <div className="tracked-empty">
        <h2>No bills in {decisionListWords[query.decision]}</h2>
        <p>
          Bills come here from the <Link to="/tabs/bills">Bills deck</Link> and from each bill’s
          details.
        </p>
      </div>
    );
  }
  if (query.all) {
    return (
      <div className="tracked-empty">
        <h2>No bills yet</h2>
        <p>
          Bills come from datasets. <Link to="/add-dataset">Add a dataset</Link> to import some.
        </p>
      </div>
    );
  }
  return (
    <div className="tracked-empty">
      <h2>No tracked bills yet</h2>
      <p>
        Track bills from the <Link to="/tabs/bills">Bills deck</Link> (swipe right or press
        “Track”), or show all bills here and track them from the list.
      </p>
      <IonButton
        fill="outline"
        onClick={() => {
          onClear({ all: true });
        }}
      >
        Show all bills
      </IonButton>
    </div>
  );
}
