import type { BackupContents } from '@docket/core/backups';
import { finalizeBill } from '@docket/core/bills';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BackupContentsView } from './backup-contents-view.tsx';
import { describeCounts } from './backup-words.ts';
import { formatSize } from '../ui/formatting.ts';

afterEach(cleanup);

const hostile = '<img src=x onerror=alert(1)> شفافية';
const at = '2025-01-15T12:00:00.000Z';

function contents(): BackupContents {
  const made = finalizeBill({
    source: 'congress-json',
    sourceId: null,
    jurisdiction: 'us',
    session: '119',
    identifier: 'H.R. 1',
    title: `${hostile} act`,
    summary: null,
    introducedDate: '2025-01-03',
    status: 'introduced',
    rawStatus: null,
    statusDate: '2025-01-03',
    sponsors: [],
    cosponsors: [],
    subjects: [],
    actions: [],
    texts: [],
    votes: [],
    url: null,
  });
  if (!made.ok) throw new Error(made.reason);
  const bill = { ...made.bill, datasetIds: [] };
  return {
    format: 'docket-backup',
    version: 1,
    createdAt: at,
    datasets: [],
    tags: [{ id: 't1', name: hostile, color: '#112233', createdAt: at, updatedAt: at }],
    billTags: [{ id: `${bill.id}|t1`, billId: bill.id, tagId: 't1', createdAt: at }],
    positions: [{ billId: bill.id, position: 'support', reason: `Why: ${hostile}`, updatedAt: at }],
    decisions: [{ billId: bill.id, decision: 'track', decidedAt: at }],
    annotations: [
      {
        id: 'a1',
        billId: bill.id,
        quote: { exact: 'act', prefix: '', suffix: '' },
        position: { start: 0, end: 3 },
        target: 'title',
        color: '#ffcc00',
        note: `Note: ${hostile}`,
        createdAt: at,
        updatedAt: at,
      },
    ],
    bills: [bill],
    clocks: {},
  };
}

describe('BackupContentsView', () => {
  it('shows the bills with their tags, triage, position and notes, hostile text as text', () => {
    const { container } = render(<BackupContentsView contents={contents()} />);
    expect(container.querySelector('img')).toBeNull();
    const bills = screen.getByRole('list', { name: 'Bills' });
    expect(within(bills).getByRole('heading', { name: `H.R. 1: ${hostile} act` })).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Tags of H.R. 1' }).textContent).toBe(hostile);
    expect(screen.getByText(`Note: ${hostile}`)).toBeTruthy();
    expect(screen.getByText(/Tracked · Position: Support/)).toBeTruthy();
    // The reason under the position, as text.
    const bill = within(bills).getAllByRole('listitem')[0] ?? bills;
    expect(within(bill).getByRole('term').textContent).toBe('Why');
    expect(within(bill).getByRole('definition').textContent).toBe(`Why: ${hostile}`);
  });

  it('shows no reason where the position has none, or only spaces', () => {
    const base = contents();
    const [row] = base.positions;
    if (row === undefined) throw new Error('no position');
    for (const reason of [undefined, '', '  ']) {
      const { container } = render(
        <BackupContentsView contents={{ ...base, positions: [{ ...row, reason }] }} />,
      );
      expect(container.querySelector('.backup-reason')).toBeNull();
      cleanup();
    }
  });
});

describe('backup words', () => {
  it('count what a backup holds and leave out the empty kinds', () => {
    expect(
      describeCounts({
        bills: 2,
        datasets: 0,
        tags: 1,
        billTags: 2,
        positions: 0,
        decisions: 1,
        annotations: 0,
      }),
    ).toBe('2 bills, 1 tag, 2 taggings, 1 triage decision');
    expect(formatSize(512)).toBe('512 bytes');
    expect(formatSize(2048)).toBe('2.0 KB');
  });
});
