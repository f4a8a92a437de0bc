import { statusWord } from '@docket/core/bills';
import { type BillListQuery, billListSearch, hasBillListFilters } from '@docket/core/lists';
import type { Tag } from '@docket/core/store';
import { IonButton } from '@ionic/react';
import type { Ref } from 'react';
import { Link } from 'react-router-dom';
import { plural } from '../ui/formatting.ts';
import { ShareList } from './share-list.tsx';
import { decisionListWords } from './tracked-filters.tsx';
import type { BillList } from './use-bill-list.ts';
import type { ListPrint } from './use-list-print.ts';
import { withoutFilters } from './use-list-query.ts';

// The line above the Tracked list: its count (a status, read out), then what to do with the
// bills it lists: export, print, share, clear the filters, select.

/** "12 bills · Later · Enacted": the count and the list and status it is of. */
export function trackedCountText(query: BillListQuery, total: number | undefined): string {
  if (total === undefined) return 'Loading bills…';
  return [
    plural(total, 'bill'),
    ...(query.decision === null ? [] : [decisionListWords[query.decision]]),
    ...(query.status === null ? [] : [statusWord(query.status)]),
  ].join(' · ');
}

export interface TrackedToolbarProps {
  readonly query: BillListQuery;
  readonly onChange: (change: Partial<BillListQuery>) => void;
  readonly list: BillList;
  readonly tags: readonly Tag[];
  readonly print: { readonly state: ListPrint; readonly print: () => void };
  /** Takes the focus when a chart bar leads here. */
  readonly countRef: Ref<HTMLParagraphElement>;
  /** Whether "Select" is offered: a workspace's viewer neither tags nor decides. */
  readonly canSelect: boolean;
  readonly selecting: boolean;
  readonly onToggleSelecting: () => void;
}

export function TrackedToolbar({
  query,
  onChange,
  list,
  tags,
  print,
  countRef,
  canSelect,
  selecting,
  onToggleSelecting,
}: TrackedToolbarProps) {
  const total = list.total;
  const listed = total !== undefined && total > 0;
  return (
    <div className="tracked-toolbar">
      <p role="status" className="tracked-count" ref={countRef} tabIndex={-1}>
        {trackedCountText(query, total)}
      </p>
      {listed && <Link to={`/export?${billListSearch(query)}`}>Export these bills</Link>}
      {listed && (
        <IonButton
          fill="outline"
          size="small"
          disabled={print.state.phase === 'preparing'}
          onClick={print.print}
        >
          Print
        </IonButton>
      )}
      {listed && (
        <ShareList
          query={query}
          total={total}
          allIds={list.allIds}
          tags={tags}
          sponsorName={list.sponsorName}
        />
      )}
      {hasBillListFilters(query) && total !== 0 && (
        <IonButton
          fill="clear"
          size="small"
          onClick={() => {
            onChange(withoutFilters(query));
          }}
        >
          Clear filters
        </IonButton>
      )}
      {/* Selecting is for tagging and deciding, which a workspace's viewer does not do. */}
      {canSelect && (
        <IonButton
          fill={selecting ? 'solid' : 'outline'}
          size="small"
          aria-pressed={selecting}
          onClick={onToggleSelecting}
        >
          Select
        </IonButton>
      )}
    </div>
  );
}
