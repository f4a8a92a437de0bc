import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { emptyDeckFilter, type DeckPage } from '@docket/core/deck';
import type { Decision, StoredBill } from '@docket/core/store';
import { storedBill } from '@docket/core/test-support/bill-command-harness';
import { useSyncExternalStore } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SwipeableBillsScreen } from './swipeable-bills-screen.tsx';

// The deck's one polite announcement, on the real screen: after a decision (and an undo) it says
// what was done, the card now on top and how many are left, and only once the live reads show
// the stored decision. The live reads and the commands are the boundary replaced here.

const live = vi.hoisted(() => {
  type State = {
    page: DeckPage | undefined;
    left: number | undefined;
    decisions: readonly Decision[] | undefined;
  };
  let state: State = { page: undefined, left: undefined, decisions: undefined };
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set: (change: Partial<State>) => {
      state = { ...state, ...change };
      for (const listener of listeners) listener();
    },
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    commands: { track: vi.fn(), dismiss: vi.fn(), later: vi.fn(), undo: vi.fn() },
  };
});

function useLive() {
  return useSyncExternalStore(live.subscribe, live.get);
}

vi.mock('../deck/use-deck.ts', () => ({
  useDeckFilter: () => ({ filter: emptyDeckFilter, setFilter: vi.fn(), error: null }),
  useDeckTally: () => {
    const { left, decisions } = useLive();
    return { left, decisions };
  },
  useCanUndo: () => true,
}));
vi.mock('../local-store/live-deck.ts', () => ({ useDeckPage: () => useLive().page }));
vi.mock('../local-store/live-bills.ts', () => ({
  useJurisdictions: () => [],
  useSessions: () => [],
}));
vi.mock('../local-store/live-datasets.ts', () => ({ useDatasets: () => [] }));
vi.mock('../bills/bill-command-services.ts', () => ({
  billCommandContext: () => Promise.resolve({}),
  editCommandContext: () => Promise.resolve({}),
  pageLocalStore: () =>
    Promise.resolve({
      read: (
        _tables: unknown,
        body: (tx: { get: (table: string, id: string) => unknown }) => unknown,
      ) =>
        Promise.resolve(
          body({
            get: (_table, id) => [sb3, ab2, ab1].find((bill) => bill.id === id),
          }),
        ),
    }),
}));
// The deck loads its commands apart (deck-decisions.ts); they are replaced where they come from.
vi.mock(import('@docket/core/commands'), async (original) => ({
  ...(await original()),
  trackBill: live.commands.track,
  dismissBill: live.commands.dismiss,
  laterBill: live.commands.later,
  undoLastDecision: live.commands.undo,
}));
// The header's sync and account parts need the app's services; only the page is tried here.
vi.mock('../layout/page-header.tsx', () => ({ PageHeader: () => null }));

const sb3 = storedBill(3, { identifier: 'SB 3', title: 'School Lunch Nutrition Act' });
const ab2 = storedBill(2, { identifier: 'AB 2', title: 'Rail Crossing Safety Act' });
const ab1 = storedBill(1, { identifier: 'AB 1', title: 'Water Meter Accuracy Act' });

function decided(bill: StoredBill, decision: Decision['decision']): Decision {
  return { billId: bill.id, decision, decidedAt: '2025-01-15T12:00:00.000Z' };
}

function announcement(): HTMLElement {
  const region = screen
    .getAllByRole('status')
    .find((element) => element.classList.contains('deck-announcement'));
  if (region === undefined) throw new Error('no deck announcement');
  return region;
}

beforeEach(() => {
  live.set({ page: { cards: [sb3, ab2, ab1], empty: null }, left: 3, decisions: [] });
  for (const command of Object.values(live.commands)) command.mockReset();
});
afterEach(cleanup);

/** Lets the screen's awaits (the commands' module, the write) run to their end. */
async function settle(): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

/** Ionic's button, found by its text: jsdom does not give the custom element its role. */
function button(name: string): HTMLElement {
  return screen.getByText(name, { selector: 'ion-button' });
}

function renderDeck() {
  render(
    <MemoryRouter>
      <SwipeableBillsScreen />
    </MemoryRouter>,
  );
}

describe('SwipeableBillsScreen announcement', () => {
  it('says the decision, the next card and the count once the store shows the decision', async () => {
    renderDeck();
    let stored: () => void = () => undefined;
    live.commands.track.mockReturnValue(
      new Promise<void>((resolve) => {
        stored = resolve;
      }),
    );
    fireEvent.click(button('Track'));
    // The next card shows at once; nothing is said before the write is done.
    await screen.findByRole('heading', { level: 2, name: 'AB 2' });
    expect(announcement()).toHaveProperty('textContent', '');
    await waitFor(() => {
      expect(live.commands.track).toHaveBeenCalledOnce();
    });
    stored();
    await settle();
    // Stored, but the count has not seen it yet: still nothing, rather than "3 bills left".
    expect(announcement()).toHaveProperty('textContent', '');
    act(() => {
      live.set({ left: 2, decisions: [decided(sb3, 'track')] });
    });
    await waitFor(() => {
      expect(announcement()).toHaveProperty(
        'textContent',
        'Tracked SB 3. Next: AB 2, Rail Crossing Safety Act. 2 bills left.',
      );
    });
    expect(announcement().getAttribute('aria-live')).toBe('polite');
  });

  it('says an arrow key decision, the end of the deck, and what Undo brought back', async () => {
    live.set({ page: { cards: [ab1], empty: null }, left: 1 });
    renderDeck();
    live.commands.later.mockResolvedValue(undefined);
    fireEvent.keyDown(screen.getByRole('region', { name: 'Bill deck' }), { key: 'ArrowUp' });
    await waitFor(() => {
      expect(live.commands.later).toHaveBeenCalledOnce();
    });
    await settle();
    act(() => {
      live.set({ left: 0, decisions: [decided(ab1, 'later')] });
    });
    // The page read has not said the deck is empty yet: no "Next", no end, nothing said.
    expect(announcement()).toHaveProperty('textContent', '');
    act(() => {
      live.set({ page: { cards: [], empty: { kind: 'all-triaged', later: 1 } } });
    });
    await waitFor(() => {
      expect(announcement()).toHaveProperty('textContent', 'Saved for later: AB 1. No bills left.');
    });

    live.commands.undo.mockImplementation(() => {
      live.set({ left: 1, decisions: [] });
      return Promise.resolve({ kind: 'undone', billId: ab1.id, decision: null });
    });
    fireEvent.click(button('Undo'));
    await waitFor(() => {
      expect(live.commands.undo).toHaveBeenCalledOnce();
    });
    await settle();
    // The count has seen the undo, the cards not yet.
    expect(announcement()).toHaveProperty('textContent', 'Saved for later: AB 1. No bills left.');
    act(() => {
      live.set({ page: { cards: [ab1], empty: null } });
    });
    await waitFor(() => {
      expect(announcement()).toHaveProperty('textContent', 'Brought back AB 1. 1 bill left.');
    });
  });
});

describe('SwipeableBillsScreen filter', () => {
  it('folds the open filter on Escape and leaves the keyboard on "Filter"', () => {
    renderDeck();
    const summary = screen.getByText('Filter', { selector: 'summary' });
    const panel = summary.closest('details');
    if (panel === null) throw new Error('no filter panel');
    panel.open = true;
    const search = screen.getByLabelText<HTMLInputElement>('Search the deck');
    search.focus();
    // A search field's Escape empties it first; the panel stays open.
    fireEvent.change(search, { target: { value: 'water' } });
    fireEvent.keyDown(search, { key: 'Escape' });
    expect(panel.open).toBe(true);
    fireEvent.change(search, { target: { value: '' } });
    fireEvent.keyDown(search, { key: 'Escape' });
    expect(panel.open).toBe(false);
    expect(document.activeElement).toBe(summary);
  });
});
