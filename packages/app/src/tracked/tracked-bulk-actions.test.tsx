import { cleanup, render, screen } from '@testing-library/react';
import { type BillListQuery, defaultBillListQuery } from '@docket/core/lists';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TrackedBulkActions } from './tracked-bulk-actions.tsx';
import type { TrackedSelection } from './use-tracked-selection.ts';

// The selection's bar on the Tracked list: which lists it offers to move bills to (never their
// own), and its buttons waiting while nothing is selected or a bulk action is being written.

function selectionOf(selected: readonly string[], busy = false): TrackedSelection {
  return {
    selecting: true,
    selected: new Set(selected),
    choosing: false,
    busy,
    announcement: '',
    toggleSelecting: vi.fn(),
    toggle: vi.fn(),
    selectAll: vi.fn(),
    openTagPicker: vi.fn(),
    closeTagPicker: vi.fn(),
    tagSelected: vi.fn(),
    decideSelected: vi.fn(),
  };
}

function renderBar(query: Partial<BillListQuery>, selection: TrackedSelection, total = 3) {
  render(
    <TrackedBulkActions
      query={{ ...defaultBillListQuery, ...query }}
      total={total}
      selection={selection}
    />,
  );
}

const labels = () =>
  Array.from(
    screen.getByRole('group', { name: 'Selected bills' }).querySelectorAll('ion-button'),
    (button) => button.textContent,
  );

const button = (label: string) => screen.getByText(label).closest('ion-button');
const disabled = (label: string) => button(label)?.disabled;

afterEach(() => {
  cleanup();
});

describe('TrackedBulkActions', () => {
  it('offers Track, Later and Dismiss on all bills, and only the others on a triage list', () => {
    renderBar({ all: true }, selectionOf([]));
    expect(labels()).toEqual([
      'Select all',
      'Tag selected',
      'Track selected',
      'Later selected',
      'Dismiss selected',
    ]);
    cleanup();
    renderBar({}, selectionOf([]));
    expect(labels()).toEqual(['Select all', 'Tag selected', 'Later selected', 'Dismiss selected']);
    cleanup();
    renderBar({ decision: 'later' }, selectionOf([]));
    expect(labels()).toEqual(['Select all', 'Tag selected', 'Track selected', 'Dismiss selected']);
    cleanup();
    renderBar({ decision: 'dismiss' }, selectionOf([]));
    expect(labels()).toEqual(['Select all', 'Tag selected', 'Track selected', 'Later selected']);
  });

  it('says how many are selected, and waits while none are or while one action runs', () => {
    renderBar({ all: true }, selectionOf([]));
    expect(screen.getByText('0 bills selected')).toBeTruthy();
    expect(disabled('Track selected')).toBe(true);
    expect(disabled('Select all')).toBe(false);
    cleanup();
    renderBar({ all: true }, selectionOf(['a']));
    expect(screen.getByText('1 bill selected')).toBeTruthy();
    expect(disabled('Tag selected')).toBe(false);
    expect(disabled('Dismiss selected')).toBe(false);
    cleanup();
    renderBar({ all: true }, selectionOf(['a', 'b'], true));
    expect(disabled('Tag selected')).toBe(true);
    expect(disabled('Later selected')).toBe(true);
    cleanup();
    renderBar({ all: true }, selectionOf([]), 0);
    expect(disabled('Select all')).toBe(true);
  });

  it('hands each button’s decision to the selection', () => {
    const selection = selectionOf(['a']);
    renderBar({ all: true }, selection);
    button('Later selected')?.click();
    button('Track selected')?.click();
    expect(selection.decideSelected).toHaveBeenNthCalledWith(1, 'later');
    expect(selection.decideSelected).toHaveBeenNthCalledWith(2, 'track');
  });
});
