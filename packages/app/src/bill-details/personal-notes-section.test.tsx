import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PersonalNotes } from '../local-store/personal-notes.ts';
import { PersonalNotesSection } from './personal-notes-section.tsx';

// A bill's details in a workspace's space show the person's own notes beside the team's.

const state = vi.hoisted((): { notes: PersonalNotes } => ({ notes: { status: 'none' } }));
vi.mock('../local-store/personal-notes.ts', () => ({
  usePersonalAnnotations: () => state.notes,
}));

afterEach(cleanup);

describe('the personal notes section', () => {
  it('is absent in the personal space, where the notes are the page’s own', () => {
    state.notes = { status: 'none' };
    render(<PersonalNotesSection billId="b1" />);
    expect(screen.queryByRole('heading', { name: 'Your personal notes' })).toBeNull();
  });

  it('lists the quote and note of each, says they are only the person’s, or that there are none', () => {
    const at = '2026-12-01T00:00:00.000Z';
    state.notes = {
      status: 'read',
      annotations: [
        {
          id: 'a1',
          billId: 'b1',
          quote: { exact: 'affordable housing', prefix: '', suffix: '' },
          position: { start: 0, end: 18 },
          target: 'title',
          color: '#ffd54f',
          note: 'Ask about the rent cap',
          createdAt: at,
          updatedAt: at,
        },
      ],
    };
    render(<PersonalNotesSection billId="b1" />);
    const section = screen.getByRole('region', { name: 'Your personal notes' });
    expect(within(section).getByText(/^Only you read them/)).toBeTruthy();
    const list = within(section).getByRole('list', { name: 'Your personal notes' });
    expect(list.textContent).toContain('affordable housing');
    expect(list.textContent).toContain('Ask about the rent cap');
    cleanup();
    state.notes = { status: 'read', annotations: [] };
    render(<PersonalNotesSection billId="b1" />);
    expect(screen.getByText('You have no personal notes on this bill.')).toBeTruthy();
    cleanup();
    state.notes = { status: 'failed', message: 'Your personal notes could not be read here.' };
    render(<PersonalNotesSection billId="b1" />);
    expect(screen.getByRole('alert').textContent).toBe(
      'Your personal notes could not be read here.',
    );
  });
});
