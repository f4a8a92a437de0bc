import {
  type BillListQuery,
  billListSearch,
  defaultBillListQuery,
  parseBillListQuery,
} from '@docket/core/lists';
import { useCallback, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

// The Tracked list's query (search, filters, order) kept in the URL, so that a link opens the
// same list and the charts' bars link to filtered lists.

export const TRACKED_PATH = '/tabs/tracked';

/** "Clear filters": the search and filters go; which bills, which list and the order stay. */
export function withoutFilters(query: BillListQuery): BillListQuery {
  return { ...defaultBillListQuery, all: query.all, decision: query.decision, sort: query.sort };
}

/** The query in the URL while this tab is the one shown; the last one while another tab is. */
export function useListQuery(): [BillListQuery, (change: Partial<BillListQuery>) => void] {
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
