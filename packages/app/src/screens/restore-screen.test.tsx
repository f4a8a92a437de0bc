import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { RestorePlanSummary } from '@docket/core/backups';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RestoreScreen } from './restore-screen.tsx';

// The restore screen when the user-data worker cannot work out the plan: it says so and offers
// to try again, rather than "Working out what would change…" for ever. The worker and the
// backup's download are the boundary replaced here; the screen is the real one.

const worker = vi.hoisted(() => ({ planRestores: vi.fn() }));
vi.mock('../backups/backup-actions.ts', () => ({
  planRestores: worker.planRestores,
  restoreContents: vi.fn(),
}));
vi.mock('../backups/backup-keys.ts', () => ({
  useBackupKeys: () => ({ status: 'ready', userId: 'user-1', keys: {} }),
}));
const contents = {};
vi.mock('../backups/use-opened-backup.ts', () => ({
  useOpenedBackup: () => ({
    status: 'open',
    backup: {
      contents,
      metadata: { name: 'Before the markup' },
      summary: { id: 'backup-1', createdAt: '2026-11-20T10:00:00.000Z' },
    },
  }),
}));

// The header's sync and account parts need the app's services; only the page is tried here.
vi.mock('../layout/page-header.tsx', () => ({ PageHeader: () => null }));

afterEach(cleanup);

const nothing: Omit<RestorePlanSummary, 'mode'> = {
  kinds: {
    tags: { added: 0, changed: 0, removed: 0 },
    billTags: { added: 0, changed: 0, removed: 0 },
    positions: { added: 0, changed: 0, removed: 0 },
    decisions: { added: 0, changed: 0, removed: 0 },
    annotations: { added: 0, changed: 0, removed: 0 },
    datasets: { added: 0, changed: 0, removed: 0 },
  },
  billsAdded: 0,
  empty: true,
};

describe('RestoreScreen', () => {
  it('says the plan could not be worked out, changes nothing, and tries again', async () => {
    worker.planRestores.mockRejectedValueOnce(new Error('The worker stopped'));
    worker.planRestores.mockResolvedValueOnce({
      merge: { ...nothing, mode: 'merge' },
      replace: { ...nothing, mode: 'replace' },
    });
    render(
      <MemoryRouter initialEntries={['/restore?backup=backup-1']}>
        <RestoreScreen />
      </MemoryRouter>,
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Docket could not work out what a restore would change: The worker stopped. Nothing was changed.',
    );
    expect(screen.queryByText('Working out what would change…')).toBeNull();
    fireEvent.click(screen.getByText('Try again'));
    expect(
      await screen.findAllByText('Nothing would change: your data already has all of it.'),
    ).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(worker.planRestores).toHaveBeenCalledTimes(2);
  });
});
