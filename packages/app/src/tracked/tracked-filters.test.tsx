import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { type BillListQuery, defaultBillListQuery } from '@docket/core/lists';
import type { Tag } from '@docket/core/store';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TrackedFilters } from './tracked-filters.tsx';

// The Tracked tab's filters on a phone and on a laptop (issue 40): on a phone they fold behind
// "Filter" and what is chosen shows as removable chips; on a laptop they show as before. The
// screen's width is what `matchMedia` answers, replaced here.

const housing: Tag = {
  id: 'tag-housing',
  name: 'Housing',
  color: '#336699',
  createdAt: '2025-01-15T12:00:00.000Z',
  updatedAt: '2025-01-15T12:00:00.000Z',
};

let narrow = false;
const listeners = new Set<() => void>();

function screenWidth(phone: boolean): void {
  narrow = phone;
  vi.stubGlobal(
    'matchMedia',
    (query: string) =>
      ({
        matches: query === '(max-width: 40rem)' && narrow,
        media: query,
        onchange: null,
        addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
        removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
        addListener: () => undefined,
        removeListener: () => undefined,
        dispatchEvent: () => true,
      }) as unknown as MediaQueryList,
  );
}

beforeEach(() => {
  listeners.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The filters with the query kept as the screen keeps it (in the URL); the changes are seen. */
function renderFilters(start: Partial<BillListQuery> = {}) {
  const changes: Partial<BillListQuery>[] = [];
  function Harness() {
    const [query, setQuery] = useState<BillListQuery>({ ...defaultBillListQuery, ...start });
    return (
      <TrackedFilters
        query={query}
        tags={[housing]}
        datasets={[]}
        jurisdictions={[]}
        sessions={[]}
        decisionCounts={{ track: 2, later: 1, dismiss: 0, undecided: 5 }}
        onChange={(change) => {
          changes.push(change);
          setQuery((current) => ({ ...current, ...change }));
        }}
      />
    );
  }
  render(<Harness />);
  return changes;
}

/** A select, found as a person finds it: only while it is shown. */
function select(name: string): HTMLSelectElement | null {
  return screen.queryByRole<HTMLSelectElement>('combobox', { name });
}

function filterButton(): HTMLElement {
  return screen.getByRole('button', { name: /^Filter/ });
}

describe('TrackedFilters on a phone', () => {
  it('folds the filters and the order behind "Filter", which opens and closes them', () => {
    screenWidth(true);
    renderFilters();
    const button = filterButton();
    expect(button.tagName).toBe('BUTTON');
    expect(button.textContent).toBe('Filter');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    const panel = document.getElementById(button.getAttribute('aria-controls') ?? '');
    expect(panel).not.toBeNull();
    for (const name of ['Decision', 'Status', 'Tag', 'Position', 'Sort by']) {
      expect(select(name)).toBeNull();
    }

    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    for (const name of ['Decision', 'Status', 'Tag', 'Position', 'Sort by']) {
      expect(select(name)).not.toBeNull();
    }
    expect(panel?.contains(select('Tag'))).toBe(true);

    // Escape in the panel folds it and gives the keyboard back to the button.
    const tag = select('Tag');
    tag?.focus();
    fireEvent.keyDown(tag ?? document.body, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(select('Tag')).toBeNull();
    expect(document.activeElement).toBe(button);

    fireEvent.click(button);
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('shows each chosen filter as a chip whose remover clears that filter', () => {
    screenWidth(true);
    const changes = renderFilters({ decision: 'later' });
    expect(filterButton().textContent).toBe('Filter (1)');
    expect(screen.getByText('Later', { selector: 'bdi' })).toBeTruthy();

    fireEvent.click(filterButton());
    const tag = select('Tag');
    if (tag === null) throw new Error('no Tag filter');
    fireEvent.change(tag, { target: { value: housing.id } });
    expect(changes.at(-1)).toEqual({ tagId: housing.id });
    expect(filterButton().textContent).toBe('Filter (2)');
    const chips = screen.getByRole('list', { name: 'Active filters' });
    expect(chips.textContent).toContain('Tag: Housing');

    fireEvent.click(screen.getByRole('button', { name: 'Remove the filter: tag Housing' }));
    expect(changes.at(-1)).toEqual({ tagId: null });
    expect(screen.queryByRole('button', { name: 'Remove the filter: tag Housing' })).toBeNull();
    expect(select('Tag')?.value).toBe('');
    // The other filter stays, with its chip.
    expect(filterButton().textContent).toBe('Filter (1)');
    expect(screen.getByRole('button', { name: 'Remove the filter: decision Later' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remove the filter: decision Later' }));
    expect(changes.at(-1)).toEqual({ decision: null });
    expect(screen.queryByRole('list', { name: 'Active filters' })).toBeNull();
    expect(filterButton().textContent).toBe('Filter');
  });

  it('unfolds when the screen grows to a laptop’s', () => {
    screenWidth(true);
    renderFilters();
    expect(select('Status')).toBeNull();
    act(() => {
      narrow = false;
      for (const listener of listeners) listener();
    });
    expect(select('Status')).not.toBeNull();
    expect(screen.queryByRole('button', { name: /^Filter/ })).toBeNull();
  });
});

describe('TrackedFilters on a laptop', () => {
  it('shows every filter and the order as before, the sponsor as a chip in the active filters', () => {
    screenWidth(false);
    const changes = renderFilters({ status: 'vetoed', sponsor: 'name:tim kaine' });
    expect(screen.queryByRole('button', { name: /^Filter/ })).toBeNull();
    for (const name of [
      'Decision',
      'Status',
      'Tag',
      'Position',
      'Dataset',
      'Jurisdiction',
      'Session',
      'Sort by',
    ]) {
      expect(select(name)).not.toBeNull();
    }
    expect(select('Status')?.value).toBe('vetoed');
    // The status shows in its select; only the sponsor, which has none, is a chip.
    const chips = screen.getByRole('list', { name: 'Active filters' });
    expect(chips.textContent).toBe('Sponsored by tim kaine×');
    fireEvent.click(
      screen.getByRole('button', { name: 'Remove the filter: sponsored by tim kaine' }),
    );
    expect(changes.at(-1)).toEqual({ sponsor: null });
    expect(screen.queryByRole('list', { name: 'Active filters' })).toBeNull();
  });
});
