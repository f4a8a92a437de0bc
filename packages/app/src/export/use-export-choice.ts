import type { ExportSelection } from '@docket/core/export';
import { parseBillListQuery, type BillListQuery } from '@docket/core/lists';
import type { Tag } from '@docket/core/store';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useTags } from '../local-store/live-tags.ts';

// Which bills the export screen exports: every bill, the tracked ones, a tag's, the Tracked list
// it was opened from, or the notes on removed bills; the first offer comes from the address.

/** The kinds of choice the export screen offers. */
export type ExportScope = 'all' | 'tracked' | 'tag' | 'list' | 'removed';

/** The choice of bills to export and what it selects. */
export interface ExportChoice {
  readonly scope: ExportScope;
  readonly setScope: (scope: ExportScope) => void;
  /** The notes on removed bills are chosen. */
  readonly removed: boolean;
  /** The Tracked list the screen was opened from; null when it was not. */
  readonly listQuery: BillListQuery | null;
  /** Every tag by name; undefined while loading. */
  readonly tags: readonly Tag[] | undefined;
  /** The tag chosen, if it still exists. */
  readonly chosenTag: string | null;
  readonly setTagId: (tagId: string) => void;
  /** What the export reads; null while a tag is still to be chosen. */
  readonly selection: ExportSelection | null;
}

/** The export screen's choice of bills, first offered as its address says. */
export function useExportChoice(): ExportChoice {
  const tags = useTags();
  // Opened from the Tracked tab with its query (/export?status=…): that list is offered first.
  const { search } = useLocation();
  // From the Tracked tab's "Notes on removed bills" (/export?scope=removed): those are offered.
  const removedFirst = new URLSearchParams(search).get('scope') === 'removed';
  const listQuery = !removedFirst && search.length > 1 ? parseBillListQuery(search) : null;
  const [scope, setScope] = useState<ExportScope>(
    removedFirst ? 'removed' : listQuery === null ? 'all' : 'list',
  );
  const removed = scope === 'removed';
  const [tagId, setTagId] = useState('');

  const chosenTag = tagId !== '' && tags?.some((tag) => tag.id === tagId) === true ? tagId : null;
  const selection: ExportSelection | null =
    scope === 'tag'
      ? chosenTag === null
        ? null
        : { kind: 'tag', tagId: chosenTag }
      : scope === 'list'
        ? listQuery === null
          ? null
          : { kind: 'list', query: listQuery }
        : { kind: scope };
  return { scope, setScope, removed, listQuery, tags, chosenTag, setTagId, selection };
}
