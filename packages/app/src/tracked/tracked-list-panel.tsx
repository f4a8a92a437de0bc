import { type BillListQuery, hasBillListFilters } from '@docket/core/lists';
import { useMemo, type Ref } from 'react';
import { formatBillDate } from '../bills/bill-words.ts';
import { useDatasets } from '../local-store/live-datasets.ts';
import { useTags } from '../local-store/live-tags.ts';
import { plural } from '../ui/formatting.ts';
import { IonProgressBar } from '../ui/ionic/ion-progress-bar.ts';
import { TrackedBillList } from './tracked-bill-list.tsx';
import { TrackedBulkActions } from './tracked-bulk-actions.tsx';
import { TrackedEmptyList } from './tracked-empty-list.tsx';
import { TrackedFilters } from './tracked-filters.tsx';
import { TrackedToolbar } from './tracked-toolbar.tsx';
import type { BillList } from './use-bill-list.ts';
import type { ListPrint } from './use-list-print.ts';
import type { TrackedSelection } from './use-tracked-selection.ts';

// The Tracked tab's list with everything about it: the filters, the indexing progress, the count
// and its actions, the selection's bar, what was last done, and the list (or why it is empty).

const bills = (count: number) => plural(count, 'bill');

export interface TrackedListPanelProps {
  readonly query: BillListQuery;
  readonly onChange: (change: Partial<BillListQuery>) => void;
  readonly list: BillList;
  readonly print: { readonly state: ListPrint; readonly print: () => void };
  readonly selection: TrackedSelection;
  /** A workspace's viewer: no "Select", so no tagging or deciding from the list. */
  readonly readOnly: boolean;
  readonly countRef: Ref<HTMLParagraphElement>;
  /** The page's scroll element, which the virtual list scrolls with. */
  readonly scrollElement: HTMLElement | null;
}

export function TrackedListPanel(props: TrackedListPanelProps) {
  const { query, list, selection } = props;
  const tags = useTags();
  const datasets = useDatasets();
  const tagsById = useMemo(() => new Map((tags ?? []).map((tag) => [tag.id, tag])), [tags]);
  const total = list.total;
  return (
    <>
      <TrackedFilters
        query={query}
        tags={tags ?? []}
        datasets={datasets ?? []}
        jurisdictions={list.jurisdictions}
        sessions={list.sessions}
        decisionCounts={list.decisionCounts}
        sponsorName={list.sponsorName}
        onChange={props.onChange}
      />
      {query.week !== null && (
        <p className="tracked-week">
          Bills with an action in the week of {formatBillDate(query.week)}
        </p>
      )}
      <IndexingProgress status={list.status} />
      <TrackedToolbar
        query={query}
        onChange={props.onChange}
        list={list}
        tags={tags ?? []}
        print={props.print}
        countRef={props.countRef}
        canSelect={!props.readOnly}
        selecting={selection.selecting}
        onToggleSelecting={selection.toggleSelecting}
      />
      {selection.selecting && !props.readOnly && (
        <TrackedBulkActions query={query} total={total} selection={selection} />
      )}
      <ListNotices
        announcement={selection.announcement}
        print={props.print.state}
        total={total}
        error={list.error}
      />
      {total === 0 ? (
        <TrackedEmptyList
          query={query}
          filtered={hasBillListFilters(query)}
          onClear={props.onChange}
        />
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
            scrollElement={props.scrollElement}
            tagsById={tagsById}
            selecting={selection.selecting}
            selected={selection.selected}
            onToggle={selection.toggle}
          />
        </>
      )}
    </>
  );
}

function IndexingProgress({ status }: { readonly status: BillList['status'] }) {
  if (status?.indexing !== true) return null;
  return (
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
  );
}

/** The last bulk action's words (polite, unseen), then printing's progress and failures. */
function ListNotices({
  announcement,
  print,
  total,
  error,
}: {
  readonly announcement: string;
  readonly print: ListPrint;
  readonly total: number | undefined;
  readonly error: string | null;
}) {
  return (
    <>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {print.phase === 'preparing' && (
        <p role="status">Preparing {bills(total ?? 0)} for printing…</p>
      )}
      {print.phase === 'failed' && (
        <p className="field-error" role="alert">
          {print.message}
        </p>
      )}
      {error !== null && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
