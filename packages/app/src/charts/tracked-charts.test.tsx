// Dexie's live queries compare keys through the global IndexedDB it found when it loaded, so a
// fake one must be global before Dexie is imported.
import 'fake-indexeddb/auto';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BillAction, BillStatus } from '@docket/core/bills';
import { trackedBillChartData, type TrackedBillChartData } from '@docket/core/lists';
import type { Decision, LocalRows, StoredBill } from '@docket/core/store';
import { storedBill } from '@docket/core/test-support/bill-command-harness';
import { liveLocalStore } from '../local-store/live-database.ts';
import { readTrackedChartData } from './tracked-chart-data.ts';
import { TrackedCharts, TrackedChartsView } from './tracked-charts.tsx';

// The charts read through the page's own live connection, on the global fake IndexedDB; each
// test starts from empty tables.
beforeEach(async () => {
  await liveLocalStore().write(['bills', 'decisions'], async (tx) => {
    await tx.deletePrefix('bills', '');
    await tx.deletePrefix('decisions', '');
  });
});

afterEach(() => {
  cleanup();
});

async function put<N extends 'bills' | 'decisions'>(table: N, rows: LocalRows[N][]) {
  await liveLocalStore().write([table], (tx) => tx.putMany(table, rows));
}

const action = (date: string): BillAction => ({ date, text: 'Introduced.', chamber: null });

function bill(number: number, status: BillStatus, ...dates: string[]): StoredBill {
  return storedBill(number, { status, actions: dates.map(action) });
}

function decision(bill: StoredBill, choice: Decision['decision']): Decision {
  return { billId: bill.id, decision: choice, decidedAt: '2025-01-15T12:00:00.000Z' };
}

function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

function renderAt(element: React.ReactElement) {
  return render(
    <MemoryRouter initialEntries={['/tabs/tracked']}>
      <Routes>
        <Route path="/tabs/tracked" element={element} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}

const sample: TrackedBillChartData = trackedBillChartData([
  bill(1, 'enacted', '2019-01-07', '2019-01-08'),
  bill(2, 'enacted', '2019-01-21'),
  bill(3, 'introduced', '2019-01-09'),
]);

describe('TrackedChartsView', () => {
  it('names each status bar with its count and leaves empty statuses out of the chart', () => {
    renderAt(<TrackedChartsView data={sample} />);
    const chart = screen.getByRole('list', { name: 'Tracked bills by status' });
    expect(
      within(chart)
        .getAllByRole('link')
        .map((link) => link.getAttribute('aria-label')),
    ).toEqual(['Introduced: 1 bill', 'Enacted: 2 bills']);
  });

  it('shows every week in the range, empty ones as zero and not as links', () => {
    renderAt(<TrackedChartsView data={sample} />);
    const chart = screen.getByRole('list', { name: 'Tracked bills with an action, per week' });
    expect(within(chart).getAllByRole('listitem')).toHaveLength(3);
    expect(
      within(chart)
        .getAllByRole('link')
        .map((link) => link.getAttribute('aria-label')),
    ).toEqual(['Week of Jan 7, 2019: 2 bills', 'Week of Jan 21, 2019: 1 bill']);
    expect(within(chart).getByText('Week of Jan 14, 2019: 0 bills')).toBeDefined();
  });

  it('leads from a status bar to the tracked list filtered by that status', async () => {
    renderAt(<TrackedChartsView data={sample} />);
    await userEvent.click(screen.getByRole('link', { name: 'Enacted: 2 bills' }));
    expect(screen.getByTestId('location').textContent).toBe('/tabs/tracked?status=enacted');
  });

  it("leads from a week bar to the tracked list filtered by that week's Monday", async () => {
    renderAt(<TrackedChartsView data={sample} />);
    await userEvent.click(screen.getByRole('link', { name: 'Week of Jan 21, 2019: 1 bill' }));
    expect(screen.getByTestId('location').textContent).toBe('/tabs/tracked?week=2019-01-21');
  });

  it('has the numbers as tables too, every status included', () => {
    renderAt(<TrackedChartsView data={sample} />);
    const table = screen.getByRole('table', { name: 'Tracked bills by status' });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 8);
    expect(within(table).getByRole('rowheader', { name: 'Vetoed' })).toBeDefined();
    const weeks = screen.getByRole('table', { name: 'Tracked bills with an action, per week' });
    expect(within(weeks).getAllByRole('row')).toHaveLength(1 + 3);
  });

  it('says so when nothing is tracked', () => {
    renderAt(<TrackedChartsView data={trackedBillChartData([])} />);
    expect(screen.getByText(/No tracked bills yet/)).toBeDefined();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('says so when tracked bills have no dated actions', () => {
    renderAt(<TrackedChartsView data={trackedBillChartData([bill(1, 'introduced')])} />);
    expect(screen.getByRole('link', { name: 'Introduced: 1 bill' })).toBeDefined();
    expect(screen.getByText('None of the tracked bills has a dated action yet.')).toBeDefined();
  });
});

describe('tracked chart data', () => {
  it('counts only tracked bills, and skips a decision whose bill is gone', async () => {
    const [tracked, dismissed, later] = [
      bill(1, 'enacted', '2019-01-07'),
      bill(2, 'failed'),
      bill(3, 'vetoed'),
    ];
    await put('bills', [tracked, dismissed, later]);
    await put('decisions', [
      decision(tracked, 'track'),
      decision(dismissed, 'dismiss'),
      decision(later, 'later'),
      { billId: 'us/119/hr-99', decision: 'track', decidedAt: '2025-01-15T12:00:00.000Z' },
    ]);
    const data = await readTrackedChartData(liveLocalStore());
    expect(data.total).toBe(1);
    expect(data.byStatus.filter((bar) => bar.count > 0)).toEqual([{ status: 'enacted', count: 1 }]);
    expect(data.byWeek).toEqual([{ weekStart: '2019-01-07', count: 1 }]);
  });

  it('reads more tracked bills than one batch holds', async () => {
    const bills = Array.from({ length: 1_001 }, (_, index) => bill(index + 1, 'introduced'));
    await put('bills', bills);
    await put(
      'decisions',
      bills.map((b) => decision(b, 'track')),
    );
    expect((await readTrackedChartData(liveLocalStore())).total).toBe(1_001);
  });

  it('updates the charts live as bills are tracked', async () => {
    const [first, second] = [bill(1, 'enacted', '2019-01-07'), bill(2, 'enacted', '2019-01-09')];
    await put('bills', [first, second]);
    renderAt(<TrackedCharts />);
    expect(await screen.findByText(/No tracked bills yet/)).toBeDefined();
    await put('decisions', [decision(first, 'track')]);
    expect(await screen.findByRole('link', { name: 'Enacted: 1 bill' })).toBeDefined();
    await put('decisions', [decision(second, 'track')]);
    expect(await screen.findByRole('link', { name: 'Enacted: 2 bills' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Week of Jan 7, 2019: 2 bills' })).toBeDefined();
  });
});
