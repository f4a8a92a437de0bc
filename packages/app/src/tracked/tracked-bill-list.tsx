import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { Link } from 'react-router-dom';
import { billPlace, latestActionDateText, statusWithDate, statusWord } from '@docket/core/bills';
import type { BillListRow } from '@docket/core/lists';
import type { Tag } from '@docket/core/store';
import { billDetailsPath, formatBillDate } from '../bills/bill-words.ts';
import type { BillList } from './use-bill-list.ts';
import { readChangedBillIds } from '@docket/core/lists';
import { useLiveRead } from '../local-store/live-database.ts';
import { AuthoredBy } from '../authors/authored-by.tsx';

// The list itself, virtualised: only the rows near the viewport are in the DOM, so 50,000 bills
// scroll like 50. It scrolls with the page (the IonContent's scroll element) rather than in a
// box of its own, which on a phone would trap the finger in a small window.

const positionWords = { support: 'Support', oppose: 'Oppose', watch: 'Watch', none: 'None' };

/** Every row is this tall (tracked.css clamps what is inside): measuring rows as they mount
 *  would make the virtualizer recompute all 50,000 positions for each one. */
export const ROW_HEIGHT_REM = 8.5;

function rowHeightPx(): number {
  const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
  return ROW_HEIGHT_REM * (Number.isFinite(rem) && rem > 0 ? rem : 16);
}

export interface TrackedBillListProps {
  readonly list: BillList;
  readonly total: number;
  readonly scrollElement: HTMLElement | null;
  readonly tagsById: ReadonlyMap<string, Tag>;
  readonly selecting: boolean;
  readonly selected: ReadonlySet<string>;
  readonly onToggle: (billId: string, selected: boolean) => void;
}

/**
 * Where the list starts inside the scrolling page, for the virtualizer, measured on the element
 * given the returned ref; what is above it (filters, charts) may change height, so it is
 * measured again after each render and on resizes.
 */
function useScrollMargin(scrollElement: HTMLElement | null) {
  const listRef = useRef<HTMLUListElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const element = listRef.current;
    if (element === null || scrollElement === null) return;
    const measure = () => {
      const offset =
        element.getBoundingClientRect().top -
        scrollElement.getBoundingClientRect().top +
        scrollElement.scrollTop;
      setScrollMargin((current) => (Math.abs(current - offset) < 1 ? current : offset));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(scrollElement);
    if (element.parentElement !== null) observer.observe(element.parentElement);
    return () => {
      observer.disconnect();
    };
  }, [scrollElement]);
  return { listRef, scrollMargin };
}

/** The list of bills, only the rows near the viewport in the DOM, each asked for as it nears. */
export function TrackedBillList({
  list,
  total,
  scrollElement,
  tagsById,
  selecting,
  selected,
  onToggle,
}: TrackedBillListProps) {
  const { listRef, scrollMargin } = useScrollMargin(scrollElement);

  // The virtualizer hands out fresh functions on each render; nothing here memoizes them. No
  // getItemKey: a new one each render would make it recompute all 50,000 positions each time.
  // eslint-disable-next-line react-hooks/incompatible-library -- see above
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollElement,
    estimateSize: rowHeightPx,
    overscan: 6,
    scrollMargin,
  });
  const items = virtualizer.getVirtualItems();
  // Bills whose values another device replaced, until they are opened (bill details' History).
  const changed = useLiveRead(readChangedBillIds, []);
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items[items.length - 1]?.index ?? 0;
  const { load } = list;
  useEffect(() => {
    if (total > 0) load(firstIndex, lastIndex + 1);
  }, [load, firstIndex, lastIndex, total]);

  return (
    <ul
      ref={listRef}
      className="tracked-list"
      aria-label="Bills"
      style={{ height: `${virtualizer.getTotalSize()}px` }}
    >
      {items.map((item) => (
        <li
          key={item.key}
          aria-setsize={total}
          aria-posinset={item.index + 1}
          className="tracked-row"
          style={{
            height: `${item.size}px`,
            transform: `translateY(${item.start - scrollMargin}px)`,
          }}
        >
          <RowContent
            row={list.row(item.index)}
            tagsById={tagsById}
            selecting={selecting}
            selected={selected}
            onToggle={onToggle}
            changed={changed}
          />
        </li>
      ))}
    </ul>
  );
}

/** What a row of the list holds: its bill, or that it loads or is no longer on this device. */
function RowContent({
  row,
  tagsById,
  selecting,
  selected,
  onToggle,
  changed,
}: Pick<TrackedBillListProps, 'tagsById' | 'selecting' | 'selected' | 'onToggle'> & {
  /** Undefined while it loads, null when the bill has gone. */
  readonly row: BillListRow | null | undefined;
  /** The ids of the bills another device changed; undefined while they are read. */
  readonly changed: ReadonlySet<string> | undefined;
}) {
  if (row === undefined) return <p className="tracked-row-loading">Loading…</p>;
  if (row === null) {
    return <p className="tracked-row-loading">This bill is no longer on this device.</p>;
  }
  return (
    <BillRow
      row={row}
      tagsById={tagsById}
      selecting={selecting}
      selected={selected.has(row.id)}
      onToggle={onToggle}
      changed={changed?.has(row.id) === true}
    />
  );
}

function BillRow({
  row,
  tagsById,
  selecting,
  selected,
  onToggle,
  changed,
}: {
  readonly row: BillListRow;
  readonly changed: boolean;
  readonly tagsById: ReadonlyMap<string, Tag>;
  readonly selecting: boolean;
  readonly selected: boolean;
  readonly onToggle: (billId: string, selected: boolean) => void;
}) {
  const tags = row.tagIds.flatMap((id) => {
    const tag = tagsById.get(id);
    return tag === undefined ? [] : [tag];
  });
  return (
    <div className="tracked-row-body">
      {selecting && (
        <input
          type="checkbox"
          className="tracked-row-check"
          aria-label={row.identifier}
          checked={selected}
          onChange={(event) => {
            onToggle(row.id, event.target.checked);
          }}
        />
      )}
      <div className="tracked-row-main">
        <Link className="tracked-row-link" to={billDetailsPath(row.id)}>
          <span className="tracked-row-head">
            <span className="tracked-row-identifier">{row.identifier}</span>
            <span className="tracked-row-place">{billPlace(row)}</span>
          </span>
          <span className="tracked-row-title">{row.title}</span>
        </Link>
        <p className="tracked-row-facts">
          {/* Each date with its label (core's bill-dates.ts), as on the card and in the details:
              the latest action's date, or the status's when the bill has no dated action. */}
          <span>
            {row.latestActionDate === null
              ? statusWithDate(row, formatBillDate)
              : `${statusWord(row.status)} · ${latestActionDateText(row.latestActionDate, formatBillDate)}`}
          </span>
          {row.position !== null && row.position !== 'none' && (
            <span className="tracked-row-position">
              Position: {positionWords[row.position]}
              <AuthoredBy table="positions" rowId={row.id} field="position" />
            </span>
          )}
          {!row.tracked && <span className="tracked-row-untracked">Not tracked</span>}
          {changed && <span className="tracked-row-changed">Changed on another device</span>}
        </p>
        {tags.length === 0 ? null : (
          <ul className="tag-chips" aria-label={`Tags of ${row.identifier}`}>
            {tags.map((tag) => (
              <li
                key={tag.id}
                className="tag-chip"
                style={{ '--tag-colour': tag.color } as CSSProperties}
              >
                {tag.name}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
