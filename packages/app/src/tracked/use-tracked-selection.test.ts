import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { createTag } from '@docket/core/commands';
import { createMemoryLocalStore, type LocalStore, type Tag } from '@docket/core/store';
import { billIdOf, storedBill } from '@docket/core/test-support/bill-command-harness';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { billCommandContext } from '../bills/bill-command-services.ts';
import { ReadOnlySpaceError } from '../local-store/space-role.ts';
import { useTrackedSelection } from './use-tracked-selection.ts';
import { workingInWorkspace } from '../local-store/space-test-setup.ts';

// The Tracked list's selection and its bulk actions against core's memory store as the device's
// database: the real command context (bill-command-services.ts), so a viewer is refused by it.

const state = vi.hoisted((): { store: unknown } => ({ store: null }));
vi.mock('../local-store/indexeddb-local-store.ts', () => ({
  openIndexedDbLocalStore: () => Promise.resolve(state.store),
}));

function enterAsViewer(): void {
  workingInWorkspace('viewer');
}

const store: LocalStore = createMemoryLocalStore();
state.store = store;
const allIds = [1, 2, 3].map(billIdOf);
let housing: Tag;

async function decisionsNow(): Promise<[string, string][]> {
  const rows = await store.read(['decisions'], (tx) => tx.all('decisions'));
  return rows.map((row) => [row.billId, row.decision]);
}

async function taggedNow(): Promise<string[]> {
  const rows = await store.read(['billTags'], (tx) => tx.all('billTags'));
  return rows.map((row) => row.billId);
}

function renderSelection(ids: readonly string[] = allIds) {
  return renderHook(() => useTrackedSelection(() => Promise.resolve([...ids])));
}

describe('useTrackedSelection', () => {
  beforeAll(async () => {
    await store.write(['bills'], (tx) =>
      tx.putMany(
        'bills',
        [1, 2, 3].map((n) => storedBill(n)),
      ),
    );
    housing = await createTag(await billCommandContext(), { name: 'Housing', color: '#1f77b4' });
  });
  beforeEach(async () => {
    localStorage.clear();
    await store.write(['decisions', 'billTags'], async (tx) => {
      await tx.deleteMany('decisions', await tx.keys('decisions'));
      await tx.deleteMany('billTags', await tx.keys('billTags'));
    });
  });
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  it('starts and stops selecting, each time from none selected', () => {
    const { result } = renderSelection();
    act(() => {
      result.current.toggleSelecting();
      result.current.toggle(billIdOf(1), true);
      result.current.toggle(billIdOf(2), true);
      result.current.toggle(billIdOf(1), false);
    });
    expect(result.current.selecting).toBe(true);
    expect([...result.current.selected]).toEqual([billIdOf(2)]);
    act(() => {
      result.current.toggleSelecting();
    });
    expect(result.current.selecting).toBe(false);
    expect(result.current.selected.size).toBe(0);
  });

  it('selects every bill of the list and says how many', async () => {
    const { result } = renderSelection();
    act(() => {
      result.current.selectAll();
    });
    await waitFor(() => {
      expect(result.current.announcement).toBe('Selected 3 bills');
    });
    expect([...result.current.selected]).toEqual(allIds);
  });

  it('tracks the selected bills in one go and says so', async () => {
    const { result } = renderSelection();
    act(() => {
      result.current.selectAll();
    });
    await waitFor(() => {
      expect(result.current.selected.size).toBe(3);
    });
    act(() => {
      result.current.decideSelected('track');
    });
    expect(result.current.busy).toBe(true);
    await waitFor(() => {
      expect(result.current.announcement).toBe('Tracked 3 bills');
    });
    expect(result.current.busy).toBe(false);
    expect(await decisionsNow()).toEqual(allIds.map((id) => [id, 'track']));
  });

  it('moves the selected bills to Later or Dismissed, naming the list', async () => {
    const { result } = renderSelection();
    act(() => {
      result.current.toggle(billIdOf(2), true);
    });
    act(() => {
      result.current.decideSelected('later');
    });
    await waitFor(() => {
      expect(result.current.announcement).toBe('Moved 1 bill to Later');
    });
    act(() => {
      result.current.toggle(billIdOf(3), true);
    });
    act(() => {
      result.current.decideSelected('dismiss');
    });
    await waitFor(() => {
      expect(result.current.announcement).toBe('Moved 2 bills to Dismissed');
    });
    expect(await decisionsNow()).toEqual([
      [billIdOf(2), 'dismiss'],
      [billIdOf(3), 'dismiss'],
    ]);
  });

  it('decides none of the selected bills when one of them is refused, and says why', async () => {
    const { result } = renderSelection();
    act(() => {
      result.current.toggle(billIdOf(1), true);
      result.current.toggle('us/119/hr-404', true);
      result.current.toggle(billIdOf(3), true);
    });
    act(() => {
      result.current.decideSelected('track');
    });
    await waitFor(() => {
      expect(result.current.announcement).toBe('There is no bill "us/119/hr-404" on this device.');
    });
    expect(result.current.busy).toBe(false);
    expect(await decisionsNow()).toEqual([]);
  });

  it('tags the selected bills, closing the picker, and says with what', async () => {
    const { result } = renderSelection();
    act(() => {
      result.current.toggle(billIdOf(1), true);
      result.current.toggle(billIdOf(3), true);
      result.current.openTagPicker();
    });
    expect(result.current.choosing).toBe(true);
    await act(() => result.current.tagSelected(housing));
    expect(result.current.choosing).toBe(false);
    expect(result.current.announcement).toBe('Tagged 2 bills with Housing');
    expect(await taggedNow()).toEqual([billIdOf(1), billIdOf(3)]);
  });

  it('refuses a viewer in a team workspace, writing nothing', async () => {
    enterAsViewer();
    const { result } = renderSelection();
    act(() => {
      result.current.toggle(billIdOf(1), true);
      result.current.openTagPicker();
    });
    // The picker shows the refusal and stays open.
    await act(async () => {
      await expect(result.current.tagSelected(housing)).rejects.toBeInstanceOf(ReadOnlySpaceError);
    });
    expect(result.current.choosing).toBe(true);
    expect(result.current.busy).toBe(false);
    act(() => {
      result.current.decideSelected('track');
    });
    await waitFor(() => {
      expect(result.current.announcement).toBe('That did not work. Try again.');
    });
    expect(await decisionsNow()).toEqual([]);
    expect(await taggedNow()).toEqual([]);
  });
});
